# Minimal NATS text-protocol client for lab captures (requests, publishes with headers).
import socket, json, time, itertools

class Nats:
    def __init__(self, port, user, password, host='127.0.0.1'):
        self.s = socket.create_connection((host, port), timeout=10)
        self.buf = b''
        self._line()  # INFO
        c = {"user": user, "pass": password, "headers": True, "no_responders": True, "verbose": False, "pedantic": False, "lang": "python-lab", "version": "0"}
        self.s.sendall(b'CONNECT ' + json.dumps(c).encode() + b'\r\nPING\r\n')
        while True:
            l = self._line()
            if l.startswith(b'PONG'): break
            if l.startswith(b'-ERR'): raise RuntimeError(l)
        self.sid = itertools.count(1)

    def _fill(self):
        d = self.s.recv(65536)
        if not d: raise EOFError()
        self.buf += d

    def _line(self):
        while b'\r\n' not in self.buf: self._fill()
        l, self.buf = self.buf.split(b'\r\n', 1)
        return l

    def _n(self, n):
        while len(self.buf) < n + 2: self._fill()
        d, self.buf = self.buf[:n], self.buf[n + 2:]
        return d

    def request(self, subject, payload=b'', headers=None, timeout=6):
        if isinstance(payload, str): payload = payload.encode()
        if isinstance(payload, (dict, list)): payload = json.dumps(payload).encode()
        sid = next(self.sid); inbox = '_INBOX.lab%d' % sid
        self.s.sendall(('SUB %s %d\r\n' % (inbox, sid)).encode())
        self._pub(subject, inbox, payload, headers)
        self.s.settimeout(timeout)
        try:
            while True:
                l = self._line()
                if l.startswith(b'PING'): self.s.sendall(b'PONG\r\n'); continue
                if l.startswith(b'MSG'):
                    p = l.split(); d = self._n(int(p[-1])); return (b'', d)
                if l.startswith(b'HMSG'):
                    p = l.split(); hl, tl = int(p[-2]), int(p[-1]); d = self._n(tl); return (d[:hl], d[hl:])
                if l.startswith(b'-ERR'): raise RuntimeError(l)
        except socket.timeout:
            return None
        finally:
            self.s.settimeout(10)
            self.s.sendall(('UNSUB %d\r\n' % sid).encode())

    def _pub(self, subject, reply, payload, headers):
        r = (' ' + reply) if reply else ''
        if headers:
            h = 'NATS/1.0\r\n' + ''.join('%s: %s\r\n' % kv for kv in headers.items()) + '\r\n'
            hb = h.encode()
            self.s.sendall(('HPUB %s%s %d %d\r\n' % (subject, r, len(hb), len(hb) + len(payload))).encode() + hb + payload + b'\r\n')
        else:
            self.s.sendall(('PUB %s%s %d\r\n' % (subject, r, len(payload))).encode() + payload + b'\r\n')

    def publish(self, subject, payload=b'', reply=None, headers=None):
        if isinstance(payload, str): payload = payload.encode()
        self._pub(subject, reply, payload, headers)
        self.s.sendall(b'PING\r\n')
        while True:
            l = self._line()
            if l.startswith(b'PONG'): return
            if l.startswith(b'-ERR'): raise RuntimeError(l)

    def js(self, api, body=None, domain=None):
        subj = ('$JS.%s.API.' % domain if domain else '$JS.API.') + api
        r = self.request(subj, json.dumps(body).encode() if body is not None else b'')
        return json.loads(r[1]) if r else None

    def close(self):
        self.s.close()
