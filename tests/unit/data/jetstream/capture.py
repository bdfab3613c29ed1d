#!/usr/bin/env python3
# Captures raw JetStream API replies (the exact bytes nats-server sends) into
# tests/unit/data/jetstream/<version>/<name>.json, for JetStreamClient::parseReply's tests and fuzz seeds.
# usage: capture.py <nats-server binary> <version label> <base port>   (uses ports base..base+1)
import json, os, socket, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'logs', 'lab'))
from natsc import Nats

binary, label, base = sys.argv[1], sys.argv[2], int(sys.argv[3])
port, mport = base, base + 1
outdir = os.path.join(os.path.dirname(os.path.abspath(__file__)), label)
work = tempfile.mkdtemp(prefix='js-replies-')
conf = os.path.join(work, 'server.conf')
with open(conf, 'w') as f:
    f.write('server_name: x1\nlisten: 127.0.0.1:%d\njetstream { store_dir: "%s/js" }\n'
            'mqtt { listen: 127.0.0.1:%d }\naccounts { SYS: { users: [ { user: sys, password: syspass } ] }, '
            'ACME: { jetstream: enabled, users: [ { user: acme, password: acmepass } ] }, '
            'NOJS: { users: [ { user: nojs, password: nojspass } ] } }\nsystem_account: SYS\n' % (port, work, mport))
srv = subprocess.Popen([binary, '-c', conf, '-l', os.path.join(work, 'server.log')])


def wait_port(p):
    for _ in range(100):
        try:
            socket.create_connection(('127.0.0.1', p), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError('port %d' % p)


def save(nc, name, api, body=None):
    r = nc.request('$JS.API.' + api, json.dumps(body).encode() if body is not None else b'')
    if r is None:
        raise RuntimeError('no reply to ' + api)
    with open(os.path.join(outdir, name + '.json'), 'wb') as f:
        f.write(r[1])
    print('saved', name, len(r[1]), flush=True)
    return json.loads(r[1])


try:
    os.makedirs(outdir, exist_ok=True)
    wait_port(port)
    wait_port(mport)
    # One persistent MQTT session with a QoS 1 subscription: the MQTT streams and a durable consumer exist.
    subprocess.run(['mosquitto_sub', '-h', '127.0.0.1', '-p', str(mport), '-u', 'acme', '-P', 'acmepass',
                    '-i', 'sensor-sub-1', '-c', '-q', '1', '-t', 'sensors/+/temp', '-E'], check=True, timeout=20)
    subprocess.run(['mosquitto_pub', '-h', '127.0.0.1', '-p', str(mport), '-u', 'acme', '-P', 'acmepass',
                    '-i', 'pub-1', '-q', '1', '-r', '-t', 'sensors/kitchen/temp', '-m', '21.5'], check=True, timeout=20)
    time.sleep(0.5)
    nc = Nats(port, 'acme', 'acmepass')
    save(nc, 'info', 'INFO')
    save(nc, 'stream-names', 'STREAM.NAMES')
    save(nc, 'stream-names-filtered', 'STREAM.NAMES', {'subject': '$MQTT.sess.>'})
    save(nc, 'stream-list', 'STREAM.LIST', {'offset': 0})
    save(nc, 'stream-list-past-end', 'STREAM.LIST', {'offset': 100})
    save(nc, 'stream-info-sess', 'STREAM.INFO.$MQTT_sess')
    save(nc, 'stream-info-msgs', 'STREAM.INFO.$MQTT_msgs')
    consumers = save(nc, 'consumer-list-msgs', 'CONSUMER.LIST.$MQTT_msgs', {'offset': 0})
    durable = consumers['consumers'][0]['name']
    save(nc, 'consumer-info', 'CONSUMER.INFO.$MQTT_msgs.' + durable)
    save(nc, 'consumer-names', 'CONSUMER.NAMES.$MQTT_msgs')
    save(nc, 'msg-get-sess', 'STREAM.MSG.GET.$MQTT_sess', {'last_by_subj': '$MQTT.sess.>'})
    # Error replies.
    save(nc, 'error-stream-not-found', 'STREAM.INFO.nope')
    save(nc, 'error-consumer-not-found', 'CONSUMER.INFO.$MQTT_msgs.nope')
    save(nc, 'error-no-message', 'STREAM.MSG.GET.$MQTT_sess', {'seq': 999999})
    save(nc, 'error-overlap', 'STREAM.CREATE.blocker', {'name': 'blocker', 'subjects': ['$MQTT.sess.>']})
    save(nc, 'error-bad-request', 'STREAM.CREATE.bad', 'not an object')
    save(nc, 'error-name-mismatch', 'STREAM.CREATE.one', {'name': 'two', 'subjects': ['x']})
    nc.close()
    nojs = Nats(port, 'nojs', 'nojspass')
    save(nojs, 'error-jetstream-not-enabled', 'INFO')
    nojs.close()
finally:
    srv.terminate()
    srv.wait()
    print('work dir', work)
