#!/usr/bin/env python3
# Drives real nats-server binaries into MQTT failure modes and keeps their logs (usage: capture.py VERSION [SCENARIO...]).
# Needs mosquitto_sub/mosquitto_pub; talks NATS through natsc.py. Ports 27100-27399 on 127.0.0.1.
import os, sys, subprocess, time, json, hashlib, shutil, signal
sys.path.insert(0, os.path.dirname(__file__))
from natsc import Nats

DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
def gethash(s):
    d = hashlib.sha256(s.encode()).digest()
    return ''.join(DIGITS[b % 62] for b in d[:8])

# Binaries: Debian bookworm's nats-server and the trixie/sid ones fetched by scripts/fetch-nats-servers.sh.
SERVERS = os.environ.get('NATS_SERVERS_DIR', 'build/nats-servers')
BINS = {'2.9.10': '/usr/sbin/nats-server',
        '2.10.27': os.path.join(SERVERS, 'trixie/nats-server'),
        '2.15.1': os.path.join(SERVERS, 'sid/nats-server')}
# Scratch folder for configs, JetStream stores and logs; the logs were then copied to ../<version>/<scenario>.log.
ROOT = os.environ.get('LAB_DIR', '/tmp/explain-lab/run')
PIDS = []

ACCOUNTS = '''
accounts {
  SYS: { users: [ { user: sys, password: syspass } ] }
  NOJS: { users: [ { user: nojs, password: nojspass } ] }
  LIMITED: { jetstream: { max_mem: 64MB, max_file: 512MB, max_streams: 1, max_consumers: 100 }, users: [ { user: limited, password: limitedpass } ] }
  MS2: { jetstream: { max_mem: 64MB, max_file: 512MB, max_streams: 2, max_consumers: 100 }, users: [ { user: ms2, password: ms2pass } ] }
  MS3: { jetstream: { max_mem: 64MB, max_file: 512MB, max_streams: 3, max_consumers: 100 }, users: [ { user: ms3, password: ms3pass } ] }
  MS4: { jetstream: { max_mem: 64MB, max_file: 512MB, max_streams: 4, max_consumers: 100 }, users: [ { user: ms4, password: ms4pass } ] }
  LOWCONS: { jetstream: { max_mem: 64MB, max_file: 512MB, max_streams: 10, max_consumers: 1 }, users: [ { user: lowcons, password: lowconspass } ] }
  RES: { jetstream: { max_mem: 1MB, max_file: 4KB, max_streams: 10, max_consumers: 100 }, users: [ { user: res, password: respass } ] }
%s
}
system_account: SYS
'''
def js_acc(names):
    return '\n'.join('  %s: { jetstream: enabled, users: [ { user: %s, password: %spass } ] }' % (n, n.lower(), n.lower()) for n in names)

JSACCS = ['ACME', 'SESS', 'MSGS', 'RMSGS', 'GARB', 'TAKE', 'OVL', 'OVLM', 'OVLR', 'OVLQ', 'OVLO', 'WRONG', 'RDOWN', 'RUPD', 'LEG', 'COLL', 'RLOAD', 'BETA']

class Server:
    def __init__(self, version, name, port_base, extra_mqtt='', extra_js=''):
        self.version, self.name = version, name
        self.dir = os.path.join(ROOT, version, name)
        os.makedirs(self.dir, exist_ok=True)
        self.port, self.mport = port_base, port_base + 1
        self.log = os.path.join(self.dir, 'server.log')
        self.write_conf(extra_mqtt, extra_js)
        self.proc = None

    def write_conf(self, extra_mqtt='', extra_js=''):
        conf = 'server_name: x1\nlisten: 127.0.0.1:%d\njetstream {\n  store_dir: "%s/js"\n  %s\n}\nmqtt {\n  listen: 127.0.0.1:%d\n  %s\n}\n' % (
            self.port, self.dir, extra_js, self.mport, extra_mqtt)
        conf += ACCOUNTS % js_acc(JSACCS)
        open(os.path.join(self.dir, 'server.conf'), 'w').write(conf)

    def start(self):
        n0 = open(self.log).read().count('Server is ready') if os.path.exists(self.log) else 0
        self.proc = subprocess.Popen([BINS[self.version], '-c', os.path.join(self.dir, 'server.conf'), '-l', self.log, '-D'],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        PIDS.append(self.proc.pid)
        for _ in range(100):
            time.sleep(0.1)
            if os.path.exists(self.log) and open(self.log).read().count('Server is ready') > n0:
                return
        raise RuntimeError('server did not start: ' + self.dir)

    def stop(self):
        if self.proc:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
            PIDS.remove(self.proc.pid)
            self.proc = None

    def nats(self, user):
        return Nats(self.port, user, user + 'pass')

    def mqtt_sub(self, user, cid, topics, qos=1, clean=False, wait=1.0, bg=False):
        args = ['mosquitto_sub', '-h', '127.0.0.1', '-p', str(self.mport), '-u', user, '-P', user + 'pass', '-i', cid, '-q', str(qos), '-W', str(max(1, int(wait)))]
        if not clean: args.append('-c')
        for t in topics: args += ['-t', t]
        if bg:
            p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            PIDS.append(p.pid)
            return p
        r = subprocess.run(args, capture_output=True, timeout=30)
        return r.returncode

    def mqtt_pub(self, user, cid, topic, msg, qos=1, retain=False):
        args = ['mosquitto_pub', '-h', '127.0.0.1', '-p', str(self.mport), '-u', user, '-P', user + 'pass', '-i', cid, '-q', str(qos), '-t', topic, '-m', msg]
        if retain: args.append('-r')
        r = subprocess.run(args, capture_output=True, timeout=30)
        return r.returncode

def kill_bg(p):
    p.terminate(); p.wait(5)
    if p.pid in PIDS: PIDS.remove(p.pid)

def stream_cfg(name, subjects, **kw):
    c = {"name": name, "subjects": subjects, "retention": "limits", "storage": "file", "num_replicas": 1, "discard": "old"}
    c.update(kw)
    return c

def v210(version):
    return version != '2.9.10'

def scenario_basic(version, base):
    s = Server(version, 'basic', base)
    s.start()
    try:
        # healthy account: info line
        s.mqtt_sub('acme', 'sensor-sub-1', ['sensors/+/temp'], wait=1)
        s.mqtt_pub('acme', 'pub-1', 'sensors/kitchen/temp', '21.5', retain=True)
        # account without JetStream
        s.mqtt_sub('nojs', 'nojs-client', ['x'], wait=1)
        # stream limits
        for u in ['limited', 'ms2', 'ms3', 'ms4']:
            s.mqtt_sub(u, u + '-client', ['x'], wait=1)
        # consumer limit
        s.mqtt_sub('lowcons', 'w2', ['a/b'], wait=1)
        s.mqtt_sub('lowcons', 'w3', ['c/d'], wait=1)
        # overlapping streams created before the first MQTT connect
        ov = [('ovl', 'CONFLICT', ['$MQTT.>']), ('ovlm', 'CONFLICT2', ['$MQTT.msgs.foo.*']),
              ('ovlr', 'OTHERRET', ['$MQTT.rmsgs.foo'] if v210(version) else ['$MQTT.rmsgs'])]
        if v210(version):
            ov += [('ovlq', 'OTHERQ2', ['$MQTT.qos2.in.foo']), ('ovlo', 'OTHEROUT', ['$MQTT.out.foo'])]
        for u, name, subj in ov:
            n = s.nats(u); print(u, n.js('STREAM.CREATE.' + name, stream_cfg(name, subj))); n.close()
            s.mqtt_sub(u, u + '-c1', ['x'], wait=1)
        # QoS2 publish (2.9.10 rejects it)
        s.mqtt_pub('acme', 'pub-2', 'alerts/fire', 'fire!', qos=2, retain=True)
        # same client ID twice on the same server
        p1 = s.mqtt_sub('acme', 'dup-1', ['d/#'], wait=5, bg=True)
        time.sleep(0.7)
        p2 = s.mqtt_sub('acme', 'dup-1', ['d/#'], wait=5, bg=True)
        time.sleep(1.5)
        kill_bg(p1); kill_bg(p2)
        time.sleep(1.2)
    finally:
        s.stop()
    return s

def scenario_break(version, base):
    s = Server(version, 'break', base)
    s.start()
    try:
        # $MQTT_sess deleted while the server runs
        s.mqtt_sub('sess', 's1', ['t/#'], wait=1)
        n = s.nats('sess'); print('del sess', n.js('STREAM.DELETE.$MQTT_sess')); n.close()
        s.mqtt_sub('sess', 'fresh1', ['t/#'], wait=1)
        s.mqtt_sub('sess', 's1', ['t/#'], wait=6)
        # $MQTT_msgs deleted
        s.mqtt_sub('msgs', 'm0', ['u/#'], wait=1, clean=True)
        n = s.nats('msgs'); print('del msgs', n.js('STREAM.DELETE.$MQTT_msgs')); n.close()
        s.mqtt_sub('msgs', 'fresh3', ['u/#'], wait=1)
        s.mqtt_pub('msgs', 'p1', 'u/x', 'hello', qos=1)
        # $MQTT_rmsgs deleted
        s.mqtt_sub('rmsgs', 'r0', ['v/#'], wait=1, clean=True)
        n = s.nats('rmsgs'); print('del rmsgs', n.js('STREAM.DELETE.$MQTT_rmsgs')); n.close()
        s.mqtt_pub('rmsgs', 'p1', 't/ret2', 'kept', qos=1, retain=True)
        # garbage on a session subject
        s.mqtt_sub('garb', 'g1', ['g/#'], wait=1)
        n = s.nats('garb'); print('garbage', n.request('$MQTT.sess.' + gethash('g1'), b'this is not json {{{')); n.close()
        s.mqtt_sub('garb', 'g1', ['g/#'], wait=1)
        s.mqtt_sub('garb', 'g1', ['g/#'], wait=1)
        # remote takeover (session-persist reply from a foreign "server")
        p = s.mqtt_sub('take', 'k1', ['k/#'], wait=6, bg=True)
        time.sleep(1.0)
        h = gethash('k1')
        rec = json.dumps({"origin": "GUIFIX01", "id": "k1", "subs": {"k.>": 1}})
        reply = '$MQTT.JSA.GUIFIX01.SP.1' if version == '2.9.10' else '$MQTT.JSA.GUIFIX01.SP.%s.1' % h
        n = s.nats('take'); n.publish('$MQTT.sess.' + h, rec, reply=reply); n.close()
        time.sleep(1.5)
        kill_bg(p)
        # wrong $MQTT_sess subjects before the first connect
        n = s.nats('wrong'); print('wrong', n.js('STREAM.CREATE.$MQTT_sess', stream_cfg('$MQTT_sess', ['$MQTT.sess.hub.>'], max_msgs_per_subject=1))); n.close()
        s.mqtt_sub('wrong', 'w1', ['w/#'], wait=6)
        time.sleep(0.5)
    finally:
        s.stop()
    return s

def scenario_replicas(version, base):
    s = Server(version, 'replicas', base)
    s.start()
    s.mqtt_sub('acme', 'rep-1', ['r/#'], wait=1)
    s.stop()
    s.write_conf(extra_mqtt='stream_replicas: 3')
    s.start()
    try:
        s.mqtt_sub('acme', 'rep-1', ['r/#'], wait=1)
        s.mqtt_sub('beta', 'rep-2', ['r/#'], wait=1)
    finally:
        s.stop()
    return s

def scenario_legacy(version, base):
    s = Server(version, 'legacy', base)
    s.start()
    try:
        n = s.nats('leg')
        for name in ['$MQTT_sess_AAAAAAAA', '$MQTT_sess_BBBBBBBB', '$MQTT_sess_CCCCCCCC']:
            print(n.js('STREAM.CREATE.' + name, stream_cfg(name, [name], max_msgs=1)))
        rec = json.dumps({"origin": "oldsrv01", "id": "legacy-client", "subs": {"a.b": 1}})
        print(n.request('$MQTT_sess_BBBBBBBB', rec.encode()))
        print(n.request('$MQTT_sess_CCCCCCCC', b'not a session record'))
        n.close()
        s.mqtt_sub('leg', 'leg-1', ['x'], wait=1)
        time.sleep(6)
    finally:
        s.stop()
    return s

def scenario_retained(version, base):
    s = Server(version, 'retained', base)
    s.start()
    try:
        n = s.nats('rdown')
        if version == '2.9.10':
            # a 2.10+ retained layout served by 2.9.10
            print(n.js('STREAM.CREATE.$MQTT_rmsgs', stream_cfg('$MQTT_rmsgs', ['$MQTT.rmsgs.>'], max_msgs_per_subject=1)))
        else:
            # a 2.9 retained layout with records to migrate, one corrupt
            print(n.js('STREAM.CREATE.$MQTT_rmsgs', stream_cfg('$MQTT_rmsgs', ['$MQTT.rmsgs'])))
            for i in range(3):
                rm = {"origin": "b5IQZNtG", "subject": "old%d" % i, "topic": "old%d" % i, "msg": "YmFy", "flags": 1}
                print(n.request('$MQTT.rmsgs', json.dumps(rm).encode()))
            print(n.request('$MQTT.rmsgs', b'{corrupt'))
        n.close()
        s.mqtt_sub('rdown', 'rd-1', ['x'], wait=1)
        if v210(version):
            # subjects update blocked by an overlapping stream
            n = s.nats('rupd')
            print(n.js('STREAM.CREATE.$MQTT_rmsgs', stream_cfg('$MQTT_rmsgs', ['$MQTT.rmsgs'])))
            print(n.js('STREAM.CREATE.OTHER', stream_cfg('OTHER', ['$MQTT.rmsgs.foo'])))
            n.close()
            s.mqtt_sub('rupd', 'ru-1', ['x'], wait=1)
            # QoS2 options
        # retained records removed or corrupted behind the server's back (2.10.5+ loads them on demand)
        s.mqtt_pub('rload', 'rp', 'r/1', 'one', qos=1, retain=True)
        s.mqtt_pub('rload', 'rp', 'r/2', 'two', qos=1, retain=True)
        n = s.nats('rload')
        m = n.js('STREAM.MSG.GET.$MQTT_rmsgs', {"last_by_subj": '$MQTT.rmsgs.r.1' if v210(version) else '$MQTT.rmsgs'})
        print('get', m)
        if v210(version):
            print(n.js('STREAM.MSG.DELETE.$MQTT_rmsgs', {"seq": m['message']['seq'], "no_erase": True}))
            print(n.request('$MQTT.rmsgs.r.3', b'{corrupt', headers={'Nmqtt-RFlags': 'zz', 'Nmqtt-RTopic': 'r/3'}))
        n.close()
    finally:
        s.stop()
    if v210(version):
        s.start()
        try:
            s.mqtt_sub('rload', 'rs', ['r/#'], wait=2)
        finally:
            s.stop()
    return s

def scenario_options(version, base):
    # domain and QoS2 options
    extra = 'js_domain: hub'
    if v210(version):
        extra += ', reject_qos2_publish: true, downgrade_qos2_subscribe: true'
    s = Server(version, 'options', base, extra_mqtt=extra, extra_js='domain: hub')
    s.start()
    try:
        s.mqtt_sub('acme', 'dom-1', ['q/#'], qos=2, wait=1)
        s.mqtt_pub('acme', 'dom-p', 'q/x', 'qos2', qos=2)
    finally:
        s.stop()
    return s

def scenario_collision(version, base):
    s = Server(version, 'collision', base)
    s.start()
    try:
        s.mqtt_sub('coll', 'cid-03579431', ['c/#'], wait=1)
        s.mqtt_sub('coll', 'cid-09191235', ['c/#'], wait=1)
    finally:
        s.stop()
    return s

SCEN = {'basic': scenario_basic, 'break': scenario_break, 'replicas': scenario_replicas, 'legacy': scenario_legacy,
        'retained': scenario_retained, 'options': scenario_options, 'collision': scenario_collision}


def scenario_rload2(version, base):
    s = Server(version, 'rload2', base)
    s.start()
    try:
        s.mqtt_pub('rload', 'rp', 'r/1', 'one', qos=1, retain=True)
        s.mqtt_pub('rload', 'rp', 'r/2', 'two', qos=1, retain=True)
        n = s.nats('rload')
        m = n.js('STREAM.MSG.GET.$MQTT_rmsgs', {"last_by_subj": '$MQTT.rmsgs.r.1'})
        print(n.js('STREAM.MSG.DELETE.$MQTT_rmsgs', {"seq": m['message']['seq'], "no_erase": True}))
        print(n.request('$MQTT.rmsgs.r.3', b'{corrupt', headers={'Nmqtt-RFlags': 'zz', 'Nmqtt-RTopic': 'r/3'}))
        n.close()
        s.mqtt_sub('rload', 'rs', ['r/#'], wait=8)
    finally:
        s.stop()
    return s

def scenario_qos2opts(version, base):
    s = Server(version, 'qos2opts', base, extra_mqtt='reject_qos2_publish: true\n  downgrade_qos2_subscribe: true')
    s.start()
    try:
        s.mqtt_sub('acme', 'q2-sub', ['q/#'], qos=2, wait=1)
        s.mqtt_pub('acme', 'q2-pub', 'q/x', 'qos2', qos=2)
    finally:
        s.stop()
    return s
SCEN['rload2'] = scenario_rload2
SCEN['qos2opts'] = scenario_qos2opts


def scenario_extra(version, base):
    s = Server(version, 'extra', base)
    s.start()
    try:
        # two connects with the same client ID while the first one is stuck saving its session
        n = s.nats('wrong'); print('wrong', n.js('STREAM.CREATE.$MQTT_sess', stream_cfg('$MQTT_sess', ['$MQTT.sess.hub.>'], max_msgs_per_subject=1))); n.close()
        p = s.mqtt_sub('wrong', 'lk1', ['w/#'], wait=8, bg=True)
        time.sleep(0.5)
        s.mqtt_sub('wrong', 'lk1', ['w/#'], wait=3)
        time.sleep(4)
        kill_bg(p)
        if v210(version):
            # $MQTT_out deleted, then a QoS2 subscription
            s.mqtt_sub('acme', 'q0', ['z/#'], wait=1)
            n = s.nats('acme'); print('del out', n.js('STREAM.DELETE.$MQTT_out')); n.close()
            s.mqtt_sub('acme', 'q2sub', ['z/#'], qos=2, wait=6)
    finally:
        s.stop()
    return s
SCEN['extra'] = scenario_extra


def scenario_legacy2(version, base):
    s = Server(version, 'legacy2', base)
    s.start()
    try:
        n = s.nats('leg')
        for name in ['$MQTT_sess_BBBBBBBB', '$MQTT_sess_CCCCCCCC']:
            print(n.js('STREAM.CREATE.' + name, stream_cfg(name, [name], max_msgs=1)))
        rec = json.dumps({"origin": "oldsrv01", "id": "legacy-client", "subs": {"a.b": 1}})
        print(n.request('$MQTT_sess_BBBBBBBB', rec.encode()))
        print(n.request('$MQTT_sess_CCCCCCCC', b'not a session record'))
        n.close()
        s.mqtt_sub('leg', 'leg-1', ['x'], wait=1)
    finally:
        s.stop()
    return s
SCEN['legacy2'] = scenario_legacy2

def scenario_storage(version, base):
    s = Server(version, 'storage', base)
    s.start()
    try:
        s.mqtt_sub('res', 'st-sub', ['big/#'], wait=1)
        for i in range(4):
            s.mqtt_pub('res', 'st-pub', 'big/%d' % i, 'x' * 1500, qos=1, retain=True)
        s.mqtt_pub('res', 'st-pub', 'big/q', 'y' * 1500, qos=1)
        time.sleep(0.5)
    finally:
        s.stop()
    return s
SCEN['storage'] = scenario_storage

if __name__ == '__main__':
    version = sys.argv[1]
    names = sys.argv[2:] or list(SCEN)
    base = {'2.9.10': 27100, '2.10.27': 27200, '2.15.1': 27300}[version]
    try:
        for i, name in enumerate(names):
            d = os.path.join(ROOT, version, name)
            shutil.rmtree(d, ignore_errors=True)
            print('==', version, name, flush=True)
            SCEN[name](version, base + 10 * list(SCEN).index(name))
    finally:
        for pid in list(PIDS):
            try: os.kill(pid, signal.SIGTERM)
            except ProcessLookupError: pass
