"""MFRC522 driver over SPI: wakes the type A cards in the field and reads one card's UID (ISO/IEC 14443-3)."""
# MicroPython subset (also runs under CPython 3.11): no f-strings, no machine or time imports at run time (the SPI
# bus and pins are passed in); types in `# type:` comments, which MicroPython skips and tools/pico_types.py checks
# against the MicroPython rp2 stubs. Written from the NXP MFRC522 datasheet and ISO/IEC 14443-3.
# Every wait is a bounded count of register polls, never a clock: the chip's own timer (init) ends an
# exchange with a silent field, and the counts only guard against a chip that never answers at all.

# registers (datasheet section 9.2)
CommandReg = 0x01
ComIEnReg = 0x02
DivIEnReg = 0x03
ComIrqReg = 0x04
DivIrqReg = 0x05
ErrorReg = 0x06
Status1Reg = 0x07
Status2Reg = 0x08
FIFODataReg = 0x09
FIFOLevelReg = 0x0A
ControlReg = 0x0C
BitFramingReg = 0x0D
CollReg = 0x0E
ModeReg = 0x11
TxModeReg = 0x12
RxModeReg = 0x13
TxControlReg = 0x14
TxASKReg = 0x15
CRCResultRegH = 0x21  # the datasheet's CRCResultReg, most significant byte
CRCResultRegL = 0x22  # and least significant byte
TModeReg = 0x2A
TPrescalerReg = 0x2B
TReloadRegH = 0x2C
TReloadRegL = 0x2D
VersionReg = 0x37

# CommandReg commands (datasheet section 10.3) and bits
Idle = 0x00
CalcCRC = 0x03
Transmit = 0x04
Transceive = 0x0C
SoftReset = 0x0F
PowerDown = 0x10  # reads 1 until the oscillator runs after a reset
# ComIrqReg bits; writing 0 in Set1 clears the marked bits
Set1 = 0x80
TxIRq = 0x40
RxIRq = 0x20
IdleIRq = 0x10
ErrIRq = 0x02
TimerIRq = 0x01
# DivIrqReg bits
CRCIRq = 0x04
# ErrorReg bits
BufferOvfl = 0x10
CollErr = 0x08
CRCErr = 0x04
ParityErr = 0x02
ProtocolErr = 0x01
# other register bits
FlushBuffer = 0x80  # FIFOLevelReg
StartSend = 0x80  # BitFramingReg
CollPosNotValid = 0x20  # CollReg; bit 7 ValuesAfterColl = 0 clears the bits received after a collision
Force100ASK = 0x40  # TxASKReg
TAuto = 0x80  # TModeReg
Tx1RFEn = 0x01  # TxControlReg: both antenna drivers
Tx2RFEn = 0x02

# ISO/IEC 14443-3 type A
WUPA = 0x52  # 7-bit short frame; wakes IDLE and HALT cards (REQA 0x26 would miss a halted one)
HLTA = 0x50
SEL_CL1 = 0x93
SEL_CL2 = 0x95
SEL_CL3 = 0x97
CT = 0x88  # cascade tag: the UID goes on at the next cascade level
SAK_CASCADE = 0x04
NVB_SELECT = 0x70  # all 40 bits of UID CLn and BCC

RESET_POLLS = 1000
CRC_POLLS = 100  # the coprocessor needs microseconds for a few bytes
TX_POLLS = 200  # HLTA takes 0.4 ms on air
RX_POLLS = 2000  # outlasts the 25 ms timer at any SPI speed a Pico reaches from Python

TYPE_CHECKING = False  # mypy takes this name as true: `typing` and the stubs' machine exist only there
if TYPE_CHECKING:
    from typing import Optional, Tuple, Union  # noqa: F401  (read in the `# type:` comments)

    from machine import SPI, Pin  # noqa: F401

    Buffer = Union[bytes, bytearray]  # bytes for the chip (its FIFO, the CRC coprocessor)


class MFRC522Error(Exception):
    """No MFRC522 answers on SPI (raised by init() only)."""


class MFRC522:
    def __init__(self, spi, cs, rst=None):
        # type: (SPI, Pin, Optional[Pin]) -> None
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self._out = bytearray(2)
        self._in = bytearray(2)
        cs.value(1)

    # ---- SPI: address byte ((reg << 1) & 0x7E) | 0x80 to read, without 0x80 to write (datasheet 8.1.2) ----

    def _write(self, reg, value):
        # type: (int, int) -> None
        self._out[0] = (reg << 1) & 0x7E
        self._out[1] = value
        self.cs.value(0)
        try:
            self.spi.write(self._out)
        finally:
            self.cs.value(1)

    def _read(self, reg):
        # type: (int) -> int
        self._out[0] = ((reg << 1) & 0x7E) | 0x80
        self._out[1] = 0x00
        self.cs.value(0)
        try:
            self.spi.write_readinto(self._out, self._in)
        finally:
            self.cs.value(1)
        return self._in[1]

    def _write_fifo(self, data):
        # type: (Buffer) -> None
        # one chip-select pulse: every byte after the address goes to the same register
        buf = bytearray(1) + data
        buf[0] = (FIFODataReg << 1) & 0x7E
        self.cs.value(0)
        try:
            self.spi.write(buf)
        finally:
            self.cs.value(1)

    def _read_fifo(self, n):
        # type: (int) -> bytes
        # one pulse: each byte sent is the next address to read, a 0x00 ends it; answers lag one byte
        out = bytearray(n + 1)
        for i in range(n):
            out[i] = ((FIFODataReg << 1) & 0x7E) | 0x80
        into = bytearray(n + 1)
        self.cs.value(0)
        try:
            self.spi.write_readinto(out, into)
        finally:
            self.cs.value(1)
        return bytes(into[1:])

    # ---- set-up ----

    def version(self):
        # type: () -> int
        return self._read(VersionReg)

    def _wait_awake(self):
        # type: () -> None
        for _ in range(RESET_POLLS):
            if not self._read(CommandReg) & PowerDown:
                return

    def init(self):
        # type: () -> None
        if self.rst is not None:
            self.rst.value(0)  # NRSTPD low: hard power-down
            self.rst.value(1)  # the rising edge resets the chip
            self._wait_awake()
        self._write(CommandReg, SoftReset)
        self._wait_awake()
        v = self.version()
        if v == 0x00 or v == 0xFF:  # MISO held low or floating high: nothing drives it
            raise MFRC522Error("no MFRC522 answers on SPI (version 0x%02X)" % v)
        # the timer starts at the end of each transmission and gives TimerIRq when no card answers:
        # 13.56 MHz / (2 * 169 + 1) = 40 kHz, 1000 ticks = 25 ms
        self._write(TModeReg, TAuto)
        self._write(TPrescalerReg, 169)
        self._write(TReloadRegH, 1000 >> 8)
        self._write(TReloadRegL, 1000 & 0xFF)
        self._write(TxASKReg, Force100ASK)  # type A cards only decode 100% ASK
        self._write(ModeReg, 0x3D)  # CRCPreset 01: CRC_A starts at 0x6363 (other bits as reset)
        self._write(CollReg, 0x00)  # ValuesAfterColl 0: bits after a collision read as 0
        tx = self._read(TxControlReg)
        self._write(TxControlReg, tx | Tx1RFEn | Tx2RFEn)  # antenna on: the cards get power

    # ---- one exchange with the field ----

    def _start(self, data, command, framing):
        # type: (Buffer, int, int) -> None
        self._write(CommandReg, Idle)  # stop whatever runs
        self._write(ComIrqReg, 0x7F)  # Set1 = 0: clear every marked IRQ bit
        self._write(FIFOLevelReg, FlushBuffer)
        self._write_fifo(data)
        if command == Transceive:
            self._write(CommandReg, Transceive)
            self._write(BitFramingReg, StartSend | framing)  # RxAlign, TxLastBits and go
        else:
            self._write(BitFramingReg, framing)
            self._write(CommandReg, command)

    def _transceive(self, data, tx_last_bits, rx_align):
        # type: (Buffer, int, int) -> Optional[Tuple[bytes, int, int]]
        """Send data (the last byte's tx_last_bits only, 0 = all 8) and receive the answer into the FIFO
        from bit rx_align of its first byte. Returns (bytes, RxLastBits, ErrorReg) or None for silence."""
        self._start(data, Transceive, (rx_align << 4) | tx_last_bits)
        for _ in range(RX_POLLS):
            irq = self._read(ComIrqReg)
            if irq & (RxIRq | IdleIRq | TimerIRq):
                break
        else:
            return None
        if not irq & RxIRq:
            return None  # TimerIRq: nobody answered within 25 ms
        err = self._read(ErrorReg)
        n = self._read(FIFOLevelReg) & 0x7F
        data = self._read_fifo(min(n, 64)) if n else b""
        return data, self._read(ControlReg) & 0x07, err

    def _crc(self, data):
        # type: (Buffer) -> Optional[bytes]
        """CRC_A of data by the chip's coprocessor, low byte first as it goes on air; None if it never ends."""
        self._write(CommandReg, Idle)
        self._write(DivIrqReg, CRCIRq)  # Set2 = 0: clear CRCIRq
        self._write(FIFOLevelReg, FlushBuffer)
        self._write_fifo(data)
        self._write(CommandReg, CalcCRC)
        for _ in range(CRC_POLLS):
            if self._read(DivIrqReg) & CRCIRq:
                break
        else:
            return None
        self._write(CommandReg, Idle)  # CalcCRC never ends by itself
        return bytes((self._read(CRCResultRegL), self._read(CRCResultRegH)))

    # ---- ISO/IEC 14443-3 ----

    def scan(self):
        # type: () -> Optional[bytes]
        """The UID (4, 7 or 10 bytes) of one card in the field, or None. With several cards, the anticollision
        always takes the 1 branch, so the same field gives the same card. The card is halted after."""
        if self._transceive(bytes((WUPA,)), 7, 0) is None:
            return None  # the usual case: an empty field costs one exchange
        uid = self._select()
        self._halt()  # also after a failure: the next WUPA wakes them all again
        return uid

    def _select(self):
        # type: () -> Optional[bytes]
        uid = bytearray()
        for sel in (SEL_CL1, SEL_CL2, SEL_CL3):
            cl = self._anticollision(sel)
            if cl is None:
                return None
            sak = self._select_level(sel, cl)
            if sak is None:
                return None
            if sak & SAK_CASCADE:
                if cl[0] != CT or sel == SEL_CL3:
                    return None  # the SAK and the UID disagree: garbage, not a card
                uid += cl[1:4]
            else:
                if cl[0] == CT:
                    return None
                uid += cl[0:4]
                return bytes(uid)
        return None

    def _anticollision(self, sel):
        # type: (int) -> Optional[bytearray]
        """UID CLn and BCC (5 bytes) of the card this cascade level resolves to, or None."""
        cl = bytearray(5)
        known = 0  # bits of cl already settled, from bit 0 of cl[0]
        for _ in range(33):  # each collision settles at least one more of the 32 UID bits
            whole = known >> 3
            extra = known & 7
            # NVB: bytes sent (SEL and NVB included) in the high nibble, extra bits in the low one
            frame = bytearray((sel, 0x20 + (whole << 4) + extra)) + cl[0 : whole + (1 if extra else 0)]
            got = self._transceive(frame, extra, extra)
            if got is None:
                return None
            data, last_bits, err = got
            if not data or len(data) > 5 - whole:
                return None
            if err & CollErr:
                coll = self._read(CollReg)
                if coll & CollPosNotValid:
                    return None
                # CollPos counts the FIFO's bits from bit 0 of its first byte, RxAlign included; 0 means 32
                good = ((coll & 0x1F) or 32) - 1
                if good < extra or len(data) < (good + 7) >> 3:
                    return None  # a collision among the bits we sent ourselves, or bits missing
                known = (whole << 3) + good
                if known >= 32:
                    return None  # a collision in BCC alone cannot happen with real cards
                self._merge(cl, whole, extra, data, known)
                cl[known >> 3] |= 1 << (known & 7)  # follow the cards that sent a 1 here
                known += 1
                continue
            if err or last_bits or len(data) != 5 - whole:
                return None
            self._merge(cl, whole, extra, data, 40)
            if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
                return None  # BCC: a garbled answer
            return cl
        return None

    def _merge(self, cl, whole, extra, data, upto):
        # type: (bytearray, int, int, bytes, int) -> None
        """Put received bytes into cl from byte `whole` (its low `extra` bits were ours), keeping bits < upto."""
        keep = (1 << extra) - 1
        for i in range(len(data)):
            if i == 0:
                cl[whole] = (cl[whole] & keep) | (data[0] & ~keep & 0xFF)
            else:
                cl[whole + i] = data[i]
        if upto < 40:  # forget what follows the collision even if the chip did not
            cl[upto >> 3] &= (1 << (upto & 7)) - 1
            for i in range((upto >> 3) + 1, 5):
                cl[i] = 0

    def _select_level(self, sel, cl):
        # type: (int, bytearray) -> Optional[int]
        """SELECT with UID CLn, BCC and CRC_A; the SAK, or None."""
        frame = bytearray((sel, NVB_SELECT)) + cl
        crc = self._crc(frame)
        if crc is None:
            return None
        got = self._transceive(frame + crc, 0, 0)
        if got is None:
            return None
        data, last_bits, err = got
        if err or last_bits or len(data) != 3:
            return None
        if self._crc(data[0:1]) != data[1:3]:
            return None
        return data[0]

    def _halt(self):
        # type: () -> None
        """HLTA with CRC_A. A halted card stays quiet until WUPA; no answer is due, so Transmit, not Transceive."""
        frame = bytes((HLTA, 0x00))
        crc = self._crc(frame)
        if crc is None:
            return
        self._start(frame + crc, Transmit, 0)
        for _ in range(TX_POLLS):
            if self._read(ComIrqReg) & IdleIRq:
                return  # sent: the next command must not cut it short
