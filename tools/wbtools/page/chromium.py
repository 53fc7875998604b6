"""Headless Chromium driven through the DevTools protocol, with Python's standard library only.

The page tests and `wirebench report --screenshots` need three things a command-line flag of
Chromium alone does not give together: the console errors of a page, JavaScript evaluated in
it after it loaded (to choose a link and read the ranking back), and screenshots at set
widths. Chromium is started with --remote-debugging-port=0 and a fresh profile; the port it
chose is read from the profile's DevToolsActivePort file, and one page target is driven over a
WebSocket (RFC 6455, the small client below: text frames, masked as a client must).
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

from ..cli import UserError

PACKAGE = "chromium"  # the Debian package; tools/lib.sh installs it
_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")
_START_TIMEOUT = 30.0


def find():
    """The Chromium executable, or None."""
    for name in _CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class _WebSocket:
    """A WebSocket client for one DevTools target: send text, receive whole messages."""

    def __init__(self, url, timeout):
        assert url.startswith("ws://")
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("DevTools closed the connection during the WebSocket handshake")
            response += chunk
        head, _, self.buffer = response.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise OSError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise OSError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])  # FIN, text frame
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", length)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes(header) + mask + masked)

    def receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            data = self._read(length)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = first & 0x0F
            if opcode == 0x8:
                raise OSError("DevTools closed the WebSocket")
            if opcode in (0x9, 0xA):  # ping, pong: not part of a message
                continue
            message += data
            if first & 0x80:
                return message.decode()

    def close(self):
        self.sock.close()


class Browser:
    """One headless Chromium with one page. Use as a context manager.

    console_errors collects every console error, uncaught exception and error log entry the
    page produces, as text, from the moment the page target is attached.
    """

    def __init__(self, timeout=30.0):
        self.executable = find()
        if not self.executable:
            raise UserError(f"Chromium not found: install the Debian package '{PACKAGE}' "
                            f"(apt-get install --no-install-recommends {PACKAGE})")
        self.timeout = timeout
        self.console_errors = []
        self.events = []
        self._next_id = 0

    def __enter__(self):
        # Chromium's helper processes may still write into the profile while it is removed.
        self.profile = tempfile.TemporaryDirectory(prefix="wirebench-chromium-",
                                                   ignore_cleanup_errors=True)
        self.process = subprocess.Popen(
            [self.executable, "--headless", "--disable-gpu", "--no-sandbox",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-sync", "--hide-scrollbars",
             "--mute-audio", f"--user-data-dir={self.profile.name}",
             "--remote-debugging-port=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.socket = _WebSocket(self._page_url(), self.timeout)
            for domain in ("Runtime", "Log", "Page"):
                self.send(f"{domain}.enable")
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(self, *exc):
        self._stop()

    def _stop(self):
        if getattr(self, "socket", None):
            self.socket.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.profile.cleanup()

    def _page_url(self):
        active = os.path.join(self.profile.name, "DevToolsActivePort")
        deadline = time.monotonic() + _START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise OSError(f"{self.executable} exited with status {self.process.returncode} "
                              "before DevTools started")
            try:
                with open(active, encoding="ascii") as handle:
                    port = int(handle.readline())
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list",
                                            timeout=5) as answer:
                    targets = json.load(answer)
                pages = [t for t in targets if t.get("type") == "page"]
                if pages:
                    return pages[0]["webSocketDebuggerUrl"]
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise OSError(f"{self.executable}: DevTools did not start within {_START_TIMEOUT:.0f} s")

    def _note(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text")
            self.console_errors.append(f"exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", "")))
                            for a in params.get("args", []))
            self.console_errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            self.console_errors.append(f"log ({entry.get('source')}): {entry.get('text')} "
                                       f"{entry.get('url', '')}".rstrip())
        self.events.append(method)

    def send(self, method, **params):
        """Call a DevTools method; its result, or OSError with the protocol's message."""
        self._next_id += 1
        ident = self._next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise OSError(f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self._note(message)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (awaited when it is a promise)."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise OSError("JavaScript error: " + str(details.get("exception", {}).get(
                "description") or details.get("text")))
        return result.get("result", {}).get("value")

    def open(self, path, width=1280, height=900, mobile=False, ready="window.wbReady === true"):
        """Load a local file at a viewport size and wait until the ready expression is true."""
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=mobile)
        self.send("Page.navigate", url="file://" + os.path.abspath(path))
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(f"document.readyState === 'complete' && ({ready})"):
                    return
            except OSError:
                pass  # the page's context is being replaced by the navigation
            time.sleep(0.05)
        raise OSError(f"{path}: the page was not ready within {self.timeout:.0f} s "
                      f"(console errors: {self.console_errors})")

    def screenshot(self, path):
        """The viewport as a PNG file."""
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(data))
        return path

    def drain(self, seconds=0.2):
        """Wait, then make one round trip: every event sent before its answer is collected."""
        time.sleep(seconds)
        self.send("Runtime.evaluate", expression="0")
