#!/usr/bin/env python3
# Captures real MQTT records from a nats-server binary into tests/unit/data/records/<version>/<stream>.json
# usage: capture.py <nats-server binary> <version label> <base port>
import base64, json, os, shutil, socket, struct, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'logs', 'lab'))
from natsc import Nats

binary, label, base = sys.argv[1], sys.argv[2], int(sys.argv[3])
port, http, mport = base, base + 1, base + 2
outdir = os.path.join(os.path.dirname(os.path.abspath(__file__)), label)
work = tempfile.mkdtemp(prefix='codecs-cap-')
conf = os.path.join(work, 'server.conf')
with open(conf, 'w') as f:
    f.write('server_name: x1\nlisten: 127.0.0.1:%d\nhttp: 127.0.0.1:%d\njetstream { store_dir: "%s/js" }\n'
            'mqtt { listen: 127.0.0.1:%d }\naccounts { SYS: { users: [ { user: sys, password: syspass } ] }, '
            'ACME: { jetstream: enabled, users: [ { user: acme, password: acmepass } ] } }\nsystem_account: SYS\n'
            % (port, http, work, mport))
srv = subprocess.Popen([binary, '-c', conf, '-l', os.path.join(work, 'server.log')])
print('server pid', srv.pid, flush=True)
v210 = label != '2.9.10'

def mq(*args, bg=False):
    cmd = list(args[:1]) + ['-h', '127.0.0.1', '-p', str(mport), '-u', 'acme', '-P', 'acmepass'] + list(args[1:])
    if bg:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = subprocess.run(cmd, capture_output=True, timeout=20)
    print(' '.join(cmd[:1] + list(args[1:])), '->', r.returncode, flush=True)

# --- raw MQTT 3.1.1 client, for QoS2 flows that stop half-way ---
def rl(n):
    out = b''
    while True:
        b = n % 128; n //= 128
        out += bytes([b | (0x80 if n else 0)])
        if not n: return out
def s(x): x = x.encode(); return struct.pack('>H', len(x)) + x
class Mqtt:
    def __init__(self, cid, clean):
        self.s = socket.create_connection(('127.0.0.1', mport), timeout=5)
        vh = s('MQTT') + bytes([4, 0xC0 | (0x02 if clean else 0)]) + struct.pack('>H', 60)
        pl = s(cid) + s('acme') + s('acmepass')
        self.send(0x10, vh + pl); print('connack', self.read(), flush=True)
    def send(self, h, body): self.s.sendall(bytes([h]) + rl(len(body)) + body)
    def read(self):
        h = self.s.recv(1)
        if not h: raise EOFError()
        m, n = 1, 0
        while True:
            b = self.s.recv(1)[0]; n += (b & 127) * m; m *= 128
            if not b & 128: break
        d = b''
        while len(d) < n: d += self.s.recv(n - len(d))
        return h[0], d

def wait_port(p):
    for _ in range(100):
        try:
            socket.create_connection(('127.0.0.1', p), timeout=1).close(); return
        except OSError: time.sleep(0.1)
    raise RuntimeError('port %d' % p)

def dump(nc, tag, only=None):
    names = nc.js('STREAM.NAMES')['streams'] or []
    for st in names:
        if only and st != only: continue
        info = nc.js('STREAM.INFO.' + st)
        state = info['state']
        msgs = []
        for seq in range(state['first_seq'], state['last_seq'] + 1):
            r = nc.js('STREAM.MSG.GET.' + st, {'seq': seq})
            if 'message' not in r: continue
            m = r['message']
            msgs.append({'stream': st, 'subject': m['subject'], 'seq': m['seq'], 'hdrs': m.get('hdrs', ''), 'data': m.get('data', '')})
        fn = os.path.join(outdir, '%s%s.json' % (st.replace('$', ''), tag))
        with open(fn, 'w') as f:
            json.dump({'server_version': label, 'stream': st, 'config': info['config'], 'messages': msgs}, f, indent=1)
        print('saved', fn, len(msgs), flush=True)

try:
    os.makedirs(outdir, exist_ok=True)
    wait_port(port); wait_port(mport)
    mq('mosquitto_sub', '-i', 'sensor-sub-1', '-c', '-q', '1', '-t', 'sensors/+/temp', '-t', 'alerts/#', '-E')
    mq('mosquitto_sub', '-i', 'dashboard-2', '-c', '-q', '2', '-t', 'sensors/#', '-E')
    if v210:
        mq('mosquitto_sub', '-i', 'dotted-3', '-c', '-q', '2', '-t', 'rooms/living.room/+', '-t', 'a.b/#', '-t', 'x//y', '-E')
    mq('mosquitto_pub', '-i', 'pub-1', '-q', '1', '-r', '-t', 'sensors/kitchen/temp', '-m', '21.5')
    mq('mosquitto_pub', '-i', 'pub-1', '-q', '0', '-r', '-t', 'sensors/garage/temp', '-m', '9.0')
    binf = os.path.join(work, 'bin'); open(binf, 'wb').write(bytes([0, 1, 2, 0xff, 0xfe, 0x80, 0x41]))
    mq('mosquitto_pub', '-i', 'pub-1', '-q', '1', '-r', '-t', 'blobs/raw', '-f', binf)
    mq('mosquitto_pub', '-i', 'pub-3', '-q', '1', '-t', 'alerts/smoke', '-m', 'smoke!')
    if v210:
        mq('mosquitto_pub', '-i', 'pub-2', '-q', '2', '-r', '-t', 'alerts/fire', '-m', 'fire!')
        mq('mosquitto_pub', '-i', 'pub-2', '-q', '1', '-r', '-t', 'rooms/living.room/temp', '-m', '20')
        mq('mosquitto_pub', '-i', 'pub-2', '-q', '1', '-r', '-t', 'gone/soon', '-m', 'x')
        mq('mosquitto_pub', '-i', 'pub-2', '-q', '1', '-r', '-t', 'gone/soon', '-n')
        # QoS2 incoming left half-way: PUBLISH QoS2, get PUBREC, never send PUBREL
        c = Mqtt('q2pub.half' if label.startswith('2.10') else 'q2pub-half', True)  # 2.15 rejects '.' in client IDs (rc=2)
        c.send(0x34, s('sensors/hall/temp') + struct.pack('>H', 7) + b'19.5'); print('pubrec', c.read(), flush=True)
        c2 = Mqtt('q2pub-b', True)
        c2.send(0x35, s('alerts/flood') + struct.pack('>H', 9) + b'water'); print('pubrec', c2.read(), flush=True)
        # PUBREL pending: QoS2 subscriber answers PUBREC, never PUBCOMP
        r = Mqtt('q2sub-1', False)
        r.send(0x82, struct.pack('>H', 1) + s('q2/#') + bytes([2])); print('suback', r.read(), flush=True)
        mq('mosquitto_pub', '-i', 'pub-4', '-q', '2', '-t', 'q2/x', '-m', 'exactly-once')
        h, d = r.read(); print('publish', hex(h), d, flush=True)
        pi = d[2 + struct.unpack('>H', d[:2])[0]:][:2]
        r.send(0x50, pi); print('pubrel', r.read(), flush=True)
        time.sleep(0.5)
    else:
        r = c = c2 = None
    clean = subprocess.Popen(['mosquitto_sub', '-h', '127.0.0.1', '-p', str(mport), '-u', 'acme', '-P', 'acmepass',
                              '-i', 'clean-4', '-q', '1', '-t', 'clean/+', '-W', '4'], stdout=subprocess.DEVNULL)
    time.sleep(1.5)
    nc = Nats(port, 'acme', 'acmepass')
    dump(nc, '')
    clean.wait()
    # collision pair: second client inherits/conflicts with the first one's record
    mq('mosquitto_sub', '-i', 'cid-03579431', '-c', '-q', '1', '-t', 'coll/a', '-E')
    mq('mosquitto_sub', '-i', 'cid-09191235', '-c', '-q', '1', '-t', 'coll/b', '-E')
    time.sleep(0.5)
    nc2 = Nats(port, 'acme', 'acmepass')
    dump(nc2, '.after', only='$MQTT_sess')  # after the colliding pair of client IDs
finally:
    srv.terminate(); srv.wait()
    print('work dir', work)
