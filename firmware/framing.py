# Frames for the serial link: one ASCII line each, "@<seq> <kind> <fields>#<crc32>\n".
# The daemon's decoder (companion/sensors/protocol.py) reads them; PROTOCOL.md is the reference.
# Runs in the main loop only (it allocates), never in an interrupt handler.

import binascii

SEQ_MODULO = 65536


class FrameWriter:
    def __init__(self, write):
        # write: a function taking bytes, e.g. sys.stdout.buffer.write (USB serial on the Pico).
        self._write = write
        self.seq = 0

    def send(self, kind, fields):
        # fields: "key=value key=value"; values never contain spaces, "#", "@" or newlines.
        body = ("%d %s %s" % (self.seq, kind, fields)).encode()
        self._write(b"@" + body + b"#" + ("%08x" % binascii.crc32(body)).encode() + b"\n")
        self.seq = (self.seq + 1) % SEQ_MODULO
