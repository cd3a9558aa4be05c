"""A register-level fake MFRC522 with ISO/IEC 14443-3 type A cards in its field, for the tests and the laptop simulation."""
# Written from the NXP MFRC522 datasheet (registers, SPI framing, commands, IRQ bits) and ISO/IEC 14443-3
# (card states, REQA/WUPA, bit-oriented anticollision, SELECT, HLTA, CRC_A). It shares nothing with the
# driver (firmware/mfrc522.py) on purpose: a wrong register address or bit in the driver must not be
# agreed with by a fake that imported it. Where the driver misuses the chip in a way the datasheet does
# not define, the fake raises FakeChipError instead of guessing.
#
# Time is counted in reads of ComIrqReg: a card's answer shows after `answer_after` reads, the timer's
# TimerIRq after `timeout_after` reads (when the timer runs by itself: TModeReg.TAuto and a reload value).

# register addresses (datasheet section 9.2) and their names, as they appear in the trace
REG_NAMES = {
    0x01: "CommandReg",
    0x02: "ComIEnReg",
    0x03: "DivIEnReg",
    0x04: "ComIrqReg",
    0x05: "DivIrqReg",
    0x06: "ErrorReg",
    0x07: "Status1Reg",
    0x08: "Status2Reg",
    0x09: "FIFODataReg",
    0x0A: "FIFOLevelReg",
    0x0B: "WaterLevelReg",
    0x0C: "ControlReg",
    0x0D: "BitFramingReg",
    0x0E: "CollReg",
    0x11: "ModeReg",
    0x12: "TxModeReg",
    0x13: "RxModeReg",
    0x14: "TxControlReg",
    0x15: "TxASKReg",
    0x16: "TxSelReg",
    0x17: "RxSelReg",
    0x18: "RxThresholdReg",
    0x19: "DemodReg",
    0x1C: "MfTxReg",
    0x1D: "MfRxReg",
    0x1F: "SerialSpeedReg",
    0x21: "CRCResultRegH",
    0x22: "CRCResultRegL",
    0x24: "ModWidthReg",
    0x26: "RFCfgReg",
    0x27: "GsNReg",
    0x28: "CWGsPReg",
    0x29: "ModGsPReg",
    0x2A: "TModeReg",
    0x2B: "TPrescalerReg",
    0x2C: "TReloadRegH",
    0x2D: "TReloadRegL",
    0x2E: "TCounterValRegH",
    0x2F: "TCounterValRegL",
    0x31: "TestSel1Reg",
    0x32: "TestSel2Reg",
    0x33: "TestPinEnReg",
    0x34: "TestPinValueReg",
    0x35: "TestBusReg",
    0x36: "AutoTestReg",
    0x37: "VersionReg",
    0x38: "AnalogTestReg",
    0x39: "TestDAC1Reg",
    0x3A: "TestDAC2Reg",
    0x3B: "TestADCReg",
}
REG = {name: addr for addr, name in REG_NAMES.items()}

# reset values (datasheet register overview); registers not listed reset to 0x00
RESET_VALUES = {
    "CommandReg": 0x20,
    "ComIEnReg": 0x80,
    "ComIrqReg": 0x14,
    "Status1Reg": 0x21,
    "WaterLevelReg": 0x08,
    "ControlReg": 0x10,
    "CollReg": 0xA0,
    "ModeReg": 0x3F,
    "TxControlReg": 0x80,
    "TxSelReg": 0x10,
    "RxSelReg": 0x84,
    "RxThresholdReg": 0x84,
    "DemodReg": 0x4D,
    "MfTxReg": 0x62,
    "SerialSpeedReg": 0xEB,
    "CRCResultRegH": 0xFF,
    "CRCResultRegL": 0xFF,
    "ModWidthReg": 0x26,
    "RFCfgReg": 0x48,
    "GsNReg": 0x88,
    "CWGsPReg": 0x20,
    "ModGsPReg": 0x20,
    "AutoTestReg": 0x40,
}

# CommandReg commands and bits
IDLE, MEM, RANDOM_ID, CALC_CRC, TRANSMIT, NO_CMD_CHANGE, RECEIVE, TRANSCEIVE, MF_AUTHENT, SOFT_RESET = (
    0x0,
    0x1,
    0x2,
    0x3,
    0x4,
    0x7,
    0x8,
    0xC,
    0xE,
    0xF,
)
RCV_OFF, POWER_DOWN = 0x20, 0x10
# ComIrqReg / DivIrqReg bits
SET1, TX_IRQ, RX_IRQ, IDLE_IRQ, HI_ALERT_IRQ, LO_ALERT_IRQ, ERR_IRQ, TIMER_IRQ = (
    0x80,
    0x40,
    0x20,
    0x10,
    0x08,
    0x04,
    0x02,
    0x01,
)
SET2, CRC_IRQ = 0x80, 0x04
# ErrorReg bits
WR_ERR, TEMP_ERR, BUFFER_OVFL, COLL_ERR, CRC_ERR, PARITY_ERR, PROTOCOL_ERR = 0x80, 0x40, 0x10, 0x08, 0x04, 0x02, 0x01
# CollReg bits
VALUES_AFTER_COLL, COLL_POS_NOT_VALID = 0x80, 0x20
# Status1Reg bits
CRC_READY = 0x20
FIFO_SIZE = 64
# ModeReg.CRCPreset -> the CRC coprocessor's start value
CRC_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)

# ISO/IEC 14443-3 type A
REQA, WUPA, HLTA, CT = 0x26, 0x52, 0x50, 0x88
SEL_CODES = (0x93, 0x95, 0x97)
POWER_OFF, IDLE_STATE, READY, ACTIVE, HALT = "POWER-OFF", "IDLE", "READY", "ACTIVE", "HALT"
CORRUPTIONS = ("flip", "parity", "short", "noise", "lost")


class FakeChipError(Exception):
    """The driver used the chip in a way the datasheet does not define (or the fake does not model)."""


def crc_a(data, preset=0x6363):
    """ISO/IEC 14443-3 CRC_A (x^16 + x^12 + x^5 + 1, bits LSB first) of data, as an int; sent low byte first."""
    crc = preset
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def with_crc(data):
    crc = crc_a(data)
    return bytes(data) + bytes((crc & 0xFF, crc >> 8))


def to_bits(data, nbits=None):
    """Bytes as the air sends them: each byte least significant bit first."""
    if nbits is None:
        nbits = 8 * len(data)
    return [(data[i >> 3] >> (i & 7)) & 1 for i in range(nbits)]


def from_bits(bits):
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def superpose(answers):
    """Bits as the reader decodes several cards answering at once: where they differ, a collision."""
    longest = max(len(a) for a in answers)
    bits, coll = [], None
    for i in range(longest):
        seen = [a[i] for a in answers if i < len(a)]
        if coll is None and 0 in seen and 1 in seen:
            coll = i
        bits.append(1 if 1 in seen else 0)
    return bits, coll


class FakePin:
    """A machine.Pin stand-in: value() reads, value(v) sets; the chip hears the change."""

    def __init__(self, name, on_change=None, level=1):
        self.name = name
        self.level = level
        self._on_change = on_change

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            if self._on_change is not None:
                self._on_change(self.name, v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class FakeCard:
    """One ISO/IEC 14443-3 type A card: its UID, the SAK of its last cascade level and its state."""

    def __init__(self, uid, sak):
        self.uid = bytes(uid)
        self.sak = sak
        self.state = POWER_OFF
        self.level = 0  # the cascade level being resolved while READY
        self.from_halt = False  # READY*/ACTIVE*: woken by WUPA from HALT, so errors send it back to HALT

    def levels(self):
        """UID CLn of each cascade level (CT 0x88 marks that more levels follow)."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes((CT,)) + u[0:3], u[3:7]]
        return [bytes((CT,)) + u[0:3], bytes((CT,)) + u[3:6], u[6:10]]

    def atqa(self):
        # bits 8..7 give the UID size (single, double, triple); bit 3 says bit-frame anticollision
        return bytes(({4: 0x04, 7: 0x44, 10: 0x84}[len(self.uid)], 0x00))

    def power(self, on):
        self.state = IDLE_STATE if on else POWER_OFF
        self.level = 0
        self.from_halt = False

    def _other(self):
        """Anything a READY or ACTIVE card does not expect sends it back to IDLE (or HALT when woken from it)."""
        if self.state in (READY, ACTIVE):
            self.state = HALT if self.from_halt else IDLE_STATE
        return None

    def hear(self, bits):
        """One frame from the reader (bits in air order); returns the answer's bits, or None for silence."""
        if self.state == POWER_OFF:
            return None
        n = len(bits)
        if n == 7:
            cmd = from_bits(bits)[0]
            if (cmd == WUPA and self.state in (IDLE_STATE, HALT)) or (cmd == REQA and self.state == IDLE_STATE):
                self.from_halt = self.state == HALT
                self.state = READY
                self.level = 0
                return to_bits(self.atqa())
            return self._other()
        if n < 16:
            return self._other()
        data = from_bits(bits)
        if n == 32 and data[0] == HLTA and data[1] == 0x00 and with_crc(data[0:2]) == data and self.state == ACTIVE:
            self.state = HALT  # never answered
            return None
        if self.state != READY or data[0] not in SEL_CODES or SEL_CODES.index(data[0]) != self.level:
            return self._other()
        levels = self.levels()
        cl = levels[self.level]
        mine = cl + bytes((cl[0] ^ cl[1] ^ cl[2] ^ cl[3],))
        nvb = data[1]
        if nvb == 0x70:  # SELECT: the whole UID CLn, BCC and CRC_A
            if n != 72 or with_crc(data[0:7]) != data:
                return self._other()
            if data[2:7] != mine:
                return None  # another card is being selected
            if self.level == len(levels) - 1:
                self.state = ACTIVE
                sak = self.sak
            else:
                self.level += 1
                sak = 0x04  # cascade bit: the UID is not complete
            return to_bits(with_crc(bytes((sak,))))
        whole, extra = nvb >> 4, nvb & 0x0F
        if whole < 2 or whole > 6 or extra > 7 or n != 8 * whole + extra:
            return self._other()
        known = n - 16
        air = to_bits(mine)
        if bits[16:] != air[:known]:
            return None  # not our branch of the anticollision tree
        return air[known:]


class FakeMFRC522:
    """The SPI bus object for the driver (write, write_readinto, read, readinto) with the chip behind it.

    Pins: .cs (active low) and .rst (NRSTPD: low powers the chip down, the rising edge resets it).
    Test controls: place(uid, sak=None), remove(uid=None), corrupt_next(n, ...), version, floating,
    answer_after, timeout_after, cards, state_of(uid); trace is a list of ("r"|"w", register name, value)
    per register byte and ("pin", "rst", level) for reset pin changes; clear_trace() empties it.
    """

    def __init__(self, version=0x92, seed=1):
        self.version = version
        self.floating = None  # 0x00 or 0xFF: no chip on the bus, MISO reads that level
        self.answer_after = 2  # ComIrqReg reads until a card's answer is in
        self.timeout_after = 3  # ComIrqReg reads until TimerIRq when nobody answers
        self.cards = []
        self.trace = []
        self.cs = FakePin("cs", self._pin_changed)
        self.rst = FakePin("rst", self._pin_changed)
        self._rng = seed & 0xFFFFFFFF or 1
        self._corrupt_skip = 0
        self._corrupt_left = 0
        self._corrupt_mode = "flip"
        self._corrupt_bit = None
        self._session = None  # (mode, address) while cs is low
        self._pending = None  # [ComIrqReg reads left, outcome] of a running Transceive
        self._powered = True
        self._reset_registers()

    # ---- test controls ----

    def place(self, uid, sak=None):
        """Put a card in the field (several calls: several cards). sak: of the last cascade level."""
        uid = bytes(uid)
        if len(uid) not in (4, 7, 10):
            raise ValueError("a type A UID has 4, 7 or 10 bytes, not %d" % len(uid))
        if uid[len(uid) - 4] == CT:  # uid0 of a single, uid3 of a double, uid6 of a triple size UID
            raise ValueError(
                "byte %d of a %d-byte UID cannot be the cascade tag 0x88 (ISO/IEC 14443-3)" % (len(uid) - 4, len(uid))
            )
        if sak is None:
            sak = 0x08 if len(uid) == 4 else 0x00  # MIFARE Classic 1K; NTAG21x
        if sak & 0x04:
            raise ValueError("SAK 0x%02X has the cascade bit 0x04: it would say the UID is not complete" % sak)
        card = FakeCard(uid, sak & 0xFF)
        card.power(self._field_on())
        self.cards.append(card)
        return card

    def remove(self, uid=None):
        """Take a card out of the field (None: all cards)."""
        if uid is None:
            self.cards = []
        else:
            self.cards = [c for c in self.cards if c.uid != bytes(uid)]

    def corrupt_next(self, n, mode="flip", skip=0, bit=None):
        """Garble the next n card answers (after letting `skip` through). Modes: "flip" one bit with good
        parity, so only BCC or CRC_A can tell; "parity" one bit and the chip's ParityErr; "short" the
        frame's last bits missing; "noise" random bytes; "lost" the answer never arrives. bit: which bit
        to flip (default: a pseudo-random one)."""
        if mode not in CORRUPTIONS:
            raise ValueError("corruption %r is not one of %s" % (mode, ", ".join(CORRUPTIONS)))
        self._corrupt_left = n
        self._corrupt_mode = mode
        self._corrupt_skip = skip
        self._corrupt_bit = bit

    @property
    def corrupting(self):
        """How many card answers corrupt_next still has to let through or garble."""
        return self._corrupt_skip + self._corrupt_left if self._corrupt_left > 0 else 0

    def state_of(self, uid):
        for card in self.cards:
            if card.uid == bytes(uid):
                return card.state
        return None

    def clear_trace(self):
        self.trace = []

    # ---- the SPI bus (machine.SPI's methods) ----

    def write(self, buf):
        for b in buf:
            self._byte(b)

    def write_readinto(self, out, into):
        if len(out) != len(into):
            raise ValueError("write_readinto needs buffers of one length")
        for i in range(len(out)):
            into[i] = self._byte(out[i])

    def read(self, n, write=0x00):
        return bytes(self._byte(write) for _ in range(n))

    def readinto(self, buf, write=0x00):
        for i in range(len(buf)):
            buf[i] = self._byte(write)

    def _pin_changed(self, name, level):
        if name == "cs":
            self._session = None  # a new chip-select pulse starts with an address byte
            return
        self.trace.append(("pin", name, level))
        if level == 0:
            self._powered = False  # hard power-down: the field goes off with the chip
            self._power_cards(False)
        else:
            self._powered = True
            self._reset_registers()

    def _byte(self, mosi):
        """One byte of an SPI transfer (datasheet 8.1.2: address byte, then data or further addresses)."""
        if self.cs.level != 0:
            raise FakeChipError("SPI transfer while CS is high: the chip is not listening")
        if self._session is None:
            if mosi & 0x01:
                raise FakeChipError("SPI address byte 0x%02X has bit 0 set (it must be 0)" % mosi)
            self._session = ("r" if mosi & 0x80 else "w", (mosi >> 1) & 0x3F)
            return 0x00
        mode, addr = self._session
        if mode == "w":
            self._write(addr, mosi)  # every further byte goes to the same address
            return 0x00
        if addr is None:
            raise FakeChipError("SPI read continued past the 0x00 that ends it")
        value = self._read(addr)
        if mosi == 0x00:
            self._session = ("r", None)
        elif mosi & 0x81 != 0x80:
            raise FakeChipError("SPI read went on with 0x%02X, not a read address byte" % mosi)
        else:
            self._session = ("r", (mosi >> 1) & 0x3F)
        return value

    # ---- registers ----

    def _reset_registers(self):
        self.regs = bytearray(64)
        for name, value in RESET_VALUES.items():
            self.regs[REG[name]] = value
        self.fifo = bytearray()
        self._pending = None
        self._crc_on = False
        self._startup_reads = 1  # PowerDown reads 1 while the oscillator starts (once here)
        self._power_cards(False)

    def _name(self, addr):
        return REG_NAMES.get(addr, "Reg%02X" % addr)

    def _read(self, addr):
        if self.floating is not None:
            value = self.floating
        elif not self._powered:
            value = 0x00
        else:
            value = self._read_reg(addr)
        self.trace.append(("r", self._name(addr), value))
        return value

    def _read_reg(self, addr):
        name = self._name(addr)
        r = self.regs
        if name == "VersionReg":
            return self.version
        if name == "FIFODataReg":
            if not self.fifo:
                return 0x00
            value = self.fifo[0]
            self.fifo = self.fifo[1:]
            return value
        if name == "FIFOLevelReg":
            return len(self.fifo)
        if name == "CommandReg":
            if self._startup_reads > 0:
                self._startup_reads -= 1
                return r[addr] | POWER_DOWN
            return r[addr]
        if name == "ComIrqReg" and self._pending is not None:
            self._pending[0] -= 1
            if self._pending[0] <= 0:
                outcome = self._pending[1]
                self._pending = None
                outcome()
        if name == "Status1Reg":
            return (r[addr] & ~CRC_READY & 0xFF) | (CRC_READY if r[REG["DivIrqReg"]] & CRC_IRQ else 0)
        return r[addr]

    def _write(self, addr, value):
        self.trace.append(("w", self._name(addr), value))
        if self.floating is not None or not self._powered:
            return
        name = self._name(addr)
        r = self.regs
        if name == "CommandReg":
            self._command(value)
        elif name == "ComIrqReg":
            if value & SET1:
                r[addr] |= value & 0x7F
            else:
                r[addr] &= ~value & 0xFF  # write 1 to clear the marked bits
        elif name == "DivIrqReg":
            if value & SET2:
                r[addr] |= value & 0x14
            else:
                r[addr] &= ~(value & 0x14) & 0xFF
        elif name == "FIFOLevelReg":
            if value & 0x80:  # FlushBuffer
                self.fifo = bytearray()
                r[REG["ErrorReg"]] &= ~BUFFER_OVFL & 0xFF
        elif name == "FIFODataReg":
            if len(self.fifo) >= FIFO_SIZE:
                r[REG["ErrorReg"]] |= BUFFER_OVFL
            else:
                self.fifo.append(value)
            if self._crc_on:
                self._crc_consume()
        elif name == "BitFramingReg":
            r[addr] = value & 0x77  # StartSend is write-only
            if value & 0x80 and r[REG["CommandReg"]] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif name == "CollReg":
            r[addr] = (r[addr] & 0x7F) | (value & VALUES_AFTER_COLL)
        elif name == "ControlReg":
            r[addr] = (r[addr] & 0x07) | (value & 0x38)  # RxLastBits read-only, TStopNow/TStartNow write-only
        elif name in (
            "ErrorReg",
            "Status1Reg",
            "VersionReg",
            "CRCResultRegH",
            "CRCResultRegL",
            "TCounterValRegH",
            "TCounterValRegL",
        ):
            pass  # read-only
        elif name == "TxControlReg":
            was = self._field_on()
            r[addr] = value
            if was != self._field_on():
                self._power_cards(self._field_on())
        else:
            r[addr] = value

    def _command(self, value):
        r = self.regs
        addr = REG["CommandReg"]
        cmd = value & 0x0F
        if cmd == NO_CMD_CHANGE:
            r[addr] = (r[addr] & 0x0F) | (value & 0x30)
            return
        self._pending = None  # a new command ends a running Transceive
        self._crc_on = False
        r[addr] = value & 0x3F
        if cmd == IDLE:
            return
        if cmd == SOFT_RESET:
            self._reset_registers()
            return
        if cmd == CALC_CRC:
            self._crc_on = True
            self._crc_value = CRC_PRESETS[r[REG["ModeReg"]] & 0x03]
            self._crc_consume()
            return
        if cmd == TRANSMIT:
            self._air(self._take_tx())
            r[REG["ComIrqReg"]] |= TX_IRQ | IDLE_IRQ  # Transmit ends by itself
            r[addr] = value & 0x30
            return
        if cmd == TRANSCEIVE:
            return  # waits for BitFramingReg.StartSend
        if cmd in (MEM, RANDOM_ID, RECEIVE, MF_AUTHENT):
            raise FakeChipError("command 0x%X is not modelled by the fake" % cmd)
        r[addr] = value & 0x30  # an unknown command: back to Idle with IdleIRq
        r[REG["ComIrqReg"]] |= IDLE_IRQ

    def _crc_consume(self):
        """CalcCRC takes every byte out of the FIFO into the CRC and keeps running until a new command."""
        data = bytes(self.fifo)
        self.fifo = bytearray()
        self._crc_value = crc_a(data, self._crc_value)
        self.regs[REG["CRCResultRegH"]] = self._crc_value >> 8
        self.regs[REG["CRCResultRegL"]] = self._crc_value & 0xFF
        self.regs[REG["DivIrqReg"]] |= CRC_IRQ

    # ---- the field ----

    def _field_on(self):
        return self._powered and self.regs[REG["TxControlReg"]] & 0x03 != 0

    def _power_cards(self, on):
        for card in self.cards:
            card.power(on)

    def _take_tx(self):
        """The FIFO as air bits: TxLastBits of the last byte (0 = all eight)."""
        r = self.regs
        if r[REG["TxModeReg"]] & 0x80 or r[REG["RxModeReg"]] & 0x80:
            raise FakeChipError("TxCRCEn/RxCRCEn (hardware CRC) is not modelled by the fake")
        data = bytes(self.fifo)
        self.fifo = bytearray()
        last = r[REG["BitFramingReg"]] & 0x07
        nbits = 8 * len(data) - ((8 - last) if last and data else 0)
        return to_bits(data, nbits)

    def _air(self, bits):
        """Send a frame; the cards that can hear it answer (several: their bits superpose)."""
        r = self.regs
        # type A cards decode only 100% ASK at 106 kBd
        if not self._field_on() or not r[REG["TxASKReg"]] & 0x40 or r[REG["TxModeReg"]] & 0x70:
            return []
        answers = []
        for card in self.cards:
            answer = card.hear(bits)
            if answer is not None:
                answers.append(answer)
        return answers

    def _transceive(self):
        r = self.regs
        r[REG["ErrorReg"]] &= BUFFER_OVFL
        answers = self._air(self._take_tx())
        r[REG["ComIrqReg"]] |= TX_IRQ
        if r[REG["CommandReg"]] & RCV_OFF or r[REG["RxModeReg"]] & 0x70:
            answers = []
        bits, coll, err = None, None, 0
        if answers:
            bits, coll = superpose(answers)
            bits, err = self._garble(bits)
        if bits is None:
            timer_runs = r[REG["TModeReg"]] & 0x80 and (r[REG["TReloadRegH"]] or r[REG["TReloadRegL"]])
            if timer_runs:
                self._pending = [self.timeout_after, self._time_out]
            return
        self._pending = [self.answer_after, lambda: self._receive(bits, coll, err)]

    def _random(self):
        x = self._rng  # xorshift32: the same garbling for the same seed
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._rng = x
        return x

    def _garble(self, bits):
        if self._corrupt_skip > 0:
            self._corrupt_skip -= 1
            return bits, 0
        if self._corrupt_left <= 0:
            return bits, 0
        self._corrupt_left -= 1
        mode = self._corrupt_mode
        bits = list(bits)
        if mode == "lost":
            return None, 0
        if mode == "noise":
            return to_bits(bytes(self._random() & 0xFF for _ in range(1 + self._random() % 6))), 0
        if mode == "short" and len(bits) > 1:
            return bits[: len(bits) - 1 - self._random() % min(7, len(bits) - 1)], 0
        i = (self._corrupt_bit if self._corrupt_bit is not None else self._random()) % len(bits)
        bits[i] ^= 1
        return bits, PARITY_ERR if mode == "parity" else 0

    def _receive(self, bits, coll, err):
        """A frame arrives: into the FIFO from bit RxAlign of its first byte; errors, CollReg, RxLastBits, IRQs."""
        r = self.regs
        align = (r[REG["BitFramingReg"]] >> 4) & 0x07
        coll_reg = r[REG["CollReg"]] & VALUES_AFTER_COLL
        if coll is None:
            coll_reg |= COLL_POS_NOT_VALID
        else:
            err |= COLL_ERR
            if not coll_reg & VALUES_AFTER_COLL:
                bits = bits[:coll] + [0] * (len(bits) - coll)  # bits from the collision on read as 0
            pos = align + coll + 1  # counted in the FIFO's bits, RxAlign included
            coll_reg |= COLL_POS_NOT_VALID if pos > 32 else pos & 0x1F
        total = align + len(bits)
        data = bytearray((total + 7) // 8)
        for i, bit in enumerate(bits):
            if bit:
                p = align + i
                data[p >> 3] |= 1 << (p & 7)
        for b in data:
            if len(self.fifo) >= FIFO_SIZE:
                err |= BUFFER_OVFL
                break
            self.fifo.append(b)
        r[REG["CollReg"]] = coll_reg
        r[REG["ErrorReg"]] |= err
        r[REG["ControlReg"]] = (r[REG["ControlReg"]] & 0xF8) | (total & 0x07)
        r[REG["ComIrqReg"]] |= RX_IRQ | (ERR_IRQ if err else 0)

    def _time_out(self):
        self.regs[REG["ComIrqReg"]] |= TIMER_IRQ
