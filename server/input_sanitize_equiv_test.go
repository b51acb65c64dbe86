package server

// This file guards the split of sanitizer.unit into one method per kind of
// unit (issue 11): oldSanitizer is the sanitizer as it was before the split,
// copied verbatim (only renamed), and FuzzSanitizerUnchanged requires the two
// to write the same bytes and hold the same state for any input, cut at any
// points and arriving at any times.

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// equivGaps are the times a step of FuzzSanitizerUnchanged may let pass:
// either side of each deadline the sanitizer keeps.
var equivGaps = [8]time.Duration{0, 1, time.Millisecond, escWait - 1, escWait, seqWait - 1, seqWait, 3 * seqWait}

// FuzzSanitizerUnchanged feeds the same bytes to the sanitizer and to
// oldSanitizer. Each byte of ctl is one step: its high 4 bits say how many
// bytes of data to read next (0-15), bit 3 whether to call expire after
// the time passes, and its low 3 bits which of equivGaps passes. What is
// left of data when ctl runs out is read at once; then both expire and end.
// After every call the output so far, held, deadline and every field of the
// two must be the same.
func FuzzSanitizerUnchanged(f *testing.F) {
	for _, seed := range equivSeeds(f) {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, data, ctl []byte) {
		var s sanitizer
		var o oldSanitizer
		var out, oldOut []byte
		now := time.Unix(1e9, 0)
		check := func(what string) {
			t.Helper()
			if !bytes.Equal(out, oldOut) {
				t.Fatalf("after %s at %v: output %q, was %q", what, now, out, oldOut)
			}
			a, b := s, sanitizer(o)
			if !bytes.Equal(a.seq, b.seq) {
				t.Fatalf("after %s: holds %q, held %q", what, a.seq, b.seq)
			}
			a.seq, b.seq = nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("after %s: state %+v, was %+v", what, a, b)
			}
			if s.held() != o.held() || !s.deadline().Equal(o.deadline()) {
				t.Fatalf("after %s: held %d deadline %v, was %d %v", what, s.held(), s.deadline(), o.held(), o.deadline())
			}
		}
		read := func(n int) {
			for _, b := range data[:min(n, len(data))] {
				out, oldOut = s.step(out, b, now), o.step(oldOut, b, now)
				check(strconv.QuoteToASCII(string(b)))
			}
			data = data[min(n, len(data)):]
		}
		for _, c := range ctl {
			read(int(c >> 4))
			now = now.Add(equivGaps[c&7])
			if c&8 != 0 {
				out, oldOut = s.expire(out, now), o.expire(oldOut, now)
				check("expire")
			}
		}
		read(len(data))
		out, oldOut = s.expire(out, now), o.expire(oldOut, now)
		check("expire")
		out, oldOut = s.end(out), o.end(oldOut)
		check("end")
	})
}

// equivSeeds returns FuzzSanitizerUnchanged's seeds: the inputs of the
// sanitizer's and the paste's tests, cut and timed as those tests cut and
// time them, and the checked-in corpora of the other input fuzz targets,
// read in steps of 15 bytes.
func equivSeeds(f *testing.F) [][2][]byte {
	const ms10 = 2 // equivGaps[2] stands for the tests' 10 ms
	seps := strings.Repeat(";", 32)
	long := strings.Repeat("a", 2*maxPasteBytes+5)
	var seeds [][2][]byte
	add := func(gap byte, chunks ...string) {
		var data, ctl []byte
		for _, c := range chunks {
			data = append(data, c...)
			for ; len(c) > 15; c = c[15:] {
				ctl = append(ctl, 15<<4)
			}
			ctl = append(ctl, byte(len(c))<<4|8|gap)
		}
		seeds = append(seeds, [2][]byte{data, ctl})
	}
	for _, c := range [][]string{
		{"hjkl.\r\x03\x7f\t"},
		{"\x1b[A\x1bOB\x1b[1;5C\x1bO12P\x1bO123456P"},
		{"\x1b[<0;10;5M\x1b[97;5u\x1b[M !!\x1b[M\xff!!\x1b[M!\x01"},
		{"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28;29c"},
		{"\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\", "\x1b]11;rgb\a\x1b_a\x07\x1b^b\x1b\\\x1bXc\x1b\\"},
		{"\x1bP1+r5463=74727565\x1b\\"},
		{"\xc3\xa9\xff\x9b\xe2\x82x\xf0\x9f\x98\x80\xe0\x80\x80\xed\xa0\x80\xf4\x90\x80\x80"},
		{"\x1b[" + seps + "0", "qj"},
		{"\x1bP" + seps + "0q\x1b\\j"},
		{"\x1b[" + strings.Repeat("1", 70) + "m", "j"},
		{"\x1b]11;" + strings.Repeat("x", maxStringBytes) + "\a", "j"},
		{"\x1b]11;rgb:1a1a/", "2b2b/3c3c\x1b\\"},
		{"\x1b[", "<0;1;1M"},
		{"\x1b\x1b", "\x1bx\x1b\xc3\xa9\x1b [" + seps + "0"},
		{"\x1b]11;rgb\x18j\x1b]11;rgb\x1b[A\x1b]1\x1b\x1b"},
		{"\x1b[1 q\x1b[1?q\x1b[>1;2c\x1b[1\x1bj"},
		{pasteOpen + "hello\r\x1b[A" + pasteClose + "j"},
		{pasteOpen + long + pasteClose + "j"},
		{pasteOpen + long, long, "jjj" + pasteClose, "k"},
		{"\x1b[200;1~" + long + "jjj" + "\x1b[201;5~", "k"},
		{"\x1b[0200:3~" + long, "\x1b[00201~k"},
		{pasteOpen + "a" + pasteOpen + "b" + pasteClose},
	} {
		add(ms10, c...)
	}
	add(4, "\x1b", "[A")                    // escWait
	add(6, "\x1bP", "", "j")                // seqWait
	add(6, pasteOpen+"abc", "j")            // seqWait
	add(6, pasteOpen+long, "j")             // seqWait
	add(5, "\x1b]11;", "rgb", "\x1b", "\\") // just before seqWait
	corpora, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "*", "*"))
	for _, path := range corpora {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		_, v, ok := strings.Cut(strings.TrimSpace(string(b)), "[]byte(")
		data, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
		if !ok || err != nil {
			f.Fatalf("%s: not a []byte corpus entry: %v", path, err)
		}
		add(ms10, data)
	}
	return seeds
}

// oldSanitizer holds the unit being read. The zero value is ready.
type oldSanitizer struct {
	paste   pasteState
	state   sanState
	seq     []byte    // the unit so far
	since   time.Time // when it began
	need    int       // bytes still to come in sUTF8 and sX10
	params  int       // parameters begun in sCSI
	inter   bool      // an intermediate byte was seen in sCSI
	dcs     bool      // sCSI is a DCS header: a string follows
	osc     bool      // the string is an OSC: BEL ends it too
	discard bool      // the string is malformed or too long: drop it at its end
}

// held returns how many bytes the oldSanitizer holds.
func (s *oldSanitizer) held() int { return len(s.seq) }

// deadline returns when the unit held or the paste open times out, or
// zero if neither is.
func (s *oldSanitizer) deadline() time.Time {
	d := s.unitDeadline()
	if p := s.paste.last.Add(seqWait); s.paste.on && (d.IsZero() || p.Before(d)) {
		d = p
	}
	return d
}

// unitDeadline returns when the unit held times out, or zero if none is.
func (s *oldSanitizer) unitDeadline() time.Time {
	switch s.state {
	case sGround:
		return time.Time{}
	case sEsc:
		return s.since.Add(escWait)
	}
	return s.since.Add(seqWait)
}

// expire ends a unit whose deadline has passed: a lone ESC is the Esc key,
// anything else unfinished is dropped. Then it ends a paste the client has
// left open and quiet for seqWait.
func (s *oldSanitizer) expire(out []byte, now time.Time) []byte {
	if d := s.unitDeadline(); !d.IsZero() && !now.Before(d) {
		n := len(out)
		out = s.pasted(s.endUnit(out), n)
	}
	if s.paste.on && s.state == sGround && !now.Before(s.paste.last.Add(seqWait)) {
		out = s.endPaste(out)
	}
	return out
}

// end ends the unit held and the paste open, as at the end of the input.
func (s *oldSanitizer) end(out []byte) []byte {
	n := len(out)
	return s.endPaste(s.pasted(s.endUnit(out), n))
}

// endUnit ends the unit held.
func (s *oldSanitizer) endUnit(out []byte) []byte {
	if s.state == sEsc {
		out = append(out, escKey...)
	}
	s.reset()
	return out
}

// endPaste ends the paste open, if any, with a CSI 201~ unless it was sent
// already.
func (s *oldSanitizer) endPaste(out []byte) []byte {
	if s.paste.on && !s.paste.full {
		out = append(out, pasteEnd...)
	}
	s.paste = pasteState{}
	return out
}

// pasted applies the bounds of a paste to the units just put in out[n:]:
// it opens a paste at a CSI 200~, closes it at a CSI 201~, and in a paste
// passes units while they fit in maxPasteBytes. A unit that does not fit is
// replaced by a CSI 201~ that ends the paste; the ones after it are dropped.
func (s *oldSanitizer) pasted(out []byte, n int) []byte {
	unit := string(out[n:])
	if m := oldPasteMarker(unit); m != unit { // one of the many spellings
		out, unit = append(out[:n], m...), m
	}
	switch {
	case unit == "":
	case !s.paste.on:
		// A CSI 200~ is always a step's whole output: only its final
		// byte completes it, and that never makes the oldSanitizer read a
		// byte afresh.
		if unit == pasteStart {
			s.paste.on = true
		}
	case unit == pasteEnd:
		if s.paste.full {
			out = out[:n] // the paste was ended when it filled
		}
		s.paste = pasteState{}
	case s.paste.full, unit == pasteStart: // ultraviolet ignores a CSI 200~ in a paste
		out = out[:n]
	case s.paste.passed+len(unit) > maxPasteBytes:
		out = append(out[:n], pasteEnd...)
		s.paste.full = true
	default:
		s.paste.passed += len(unit)
	}
	return out
}

func (s *oldSanitizer) reset() {
	*s = oldSanitizer{seq: s.seq[:0], paste: s.paste}
}

func (s *oldSanitizer) begin(state sanState, b byte, now time.Time) {
	s.reset()
	s.state, s.since = state, now
	s.seq = append(s.seq, b)
}

// emit passes on the unit held, with b, and returns to the ground state.
func (s *oldSanitizer) emit(out []byte, b byte) []byte {
	s.seq = append(s.seq, b)
	return s.flush(out)
}

// flush passes on the unit held and returns to the ground state.
func (s *oldSanitizer) flush(out []byte) []byte {
	out = append(out, s.seq...)
	s.reset()
	return out
}

// step reads one byte at time now, appending to out whatever unit it
// completes, within the bounds of a paste.
func (s *oldSanitizer) step(out []byte, b byte, now time.Time) []byte {
	n := len(out)
	out = s.pasted(s.unit(out, b, now), n)
	if s.paste.on {
		s.paste.last = now
	}
	return out
}

// unit reads one byte at time now, appending to out whatever unit it
// completes.
func (s *oldSanitizer) unit(out []byte, b byte, now time.Time) []byte {
	switch s.state {
	case sGround:
		switch {
		case b == 0x1b:
			s.begin(sEsc, b, now)
		case b < 0x80: // a character, a control key, Backspace (DEL)
			out = append(out, b)
		case b >= 0xc2 && b <= 0xf4: // starts a UTF-8 character
			s.begin(sUTF8, b, now)
			switch {
			case b < 0xe0:
				s.need = 1
			case b < 0xf0:
				s.need = 2
			default:
				s.need = 3
			}
		default: // a stray continuation byte, a raw C1 control (0x80-0x9f), or no UTF-8 at all
		}
	case sUTF8:
		if b&0xc0 != 0x80 {
			s.reset()
			return s.unit(out, b, now)
		}
		s.seq = append(s.seq, b)
		if s.need--; s.need == 0 {
			if utf8.Valid(s.seq) { // no overlong forms or surrogates
				out = append(out, s.seq...)
			}
			s.reset()
		}
	case sEsc:
		switch {
		case b == '[' || b == 'P':
			s.seq, s.state, s.dcs = append(s.seq, b), sCSI, b == 'P'
		case b == ']' || b == '_' || b == '^' || b == 'X':
			s.seq, s.state, s.osc = append(s.seq, b), sString, b == ']'
		case b == 'O':
			s.seq, s.state = append(s.seq, b), sSS3
		case b == 0x1b: // the first was the Esc key
			out = append(out, escKey...)
			s.begin(sEsc, b, now)
		case b >= 0x20 && b <= 0x2f:
			// Alt with space or one of !"#$%&'()*+,-./ : x/ansi's
			// DecodeSequence reads ESC and these as the start of a longer
			// escape sequence that would swallow the next unit (and an ESC SP [
			// there reaches its parameter bug), so they are dropped.
			s.reset()
		case b >= 0x80: // Alt with a non-ASCII character: the Esc key, then it
			out = append(out, escKey...)
			s.reset()
			return s.unit(out, b, now)
		default: // Alt with a key: ESC and one byte, complete for both decoders
			out = s.emit(out, b)
		}
	case sCSI:
		s.seq = append(s.seq, b)
		switch {
		case b >= 0x30 && b <= 0x3f: // parameter bytes
			private := b >= '<' && b <= '?'
			switch {
			case s.inter, private && len(s.seq) != 3: // after an intermediate, or a private marker not first
				s.state = sCSIIgnore
			case b == ';' || b == ':':
				if s.params++; s.params >= maxCSIParams {
					s.state = sCSIIgnore
				}
			case s.params == 0 && !private:
				s.params = 1
			}
		case b >= 0x20 && b <= 0x2f: // intermediate bytes
			s.inter = true
		case b >= 0x40 && b <= 0x7e: // the final byte
			switch {
			case s.dcs:
				s.state = sString
			case b == 'M' && len(s.seq) == 3:
				// ESC [ M: an X10 mouse report, 3 more bytes ultraviolet
				// reads whatever they are.
				s.state, s.need = sX10, 3
			default:
				return s.flush(out)
			}
		default: // a control or non-ASCII byte cancels the sequence
			s.reset()
			return s.unit(out, b, now)
		}
		if s.state == sCSI && len(s.seq) >= maxCSIBytes {
			s.state = sCSIIgnore
		}
	case sCSIIgnore:
		switch {
		case b >= 0x20 && b <= 0x3f:
		case b >= 0x40 && b <= 0x7e:
			if s.dcs {
				s.state, s.discard = sString, true
				s.seq = s.seq[:0]
				return out
			}
			s.reset()
		default:
			s.reset()
			return s.unit(out, b, now)
		}
	case sX10:
		if b < 0x20 { // not a mouse report after all: drop it, read b afresh
			s.reset()
			return s.unit(out, b, now)
		}
		s.seq = append(s.seq, b)
		if s.need--; s.need == 0 {
			if b := s.seq[3:]; b[0] < 0x80 && b[1] < 0x80 && b[2] < 0x80 {
				out = append(out, s.seq...)
			} // else a report past column or row 95: dropped, SGR reports have no limit
			s.reset()
		}
	case sSS3:
		switch {
		case b >= '0' && b <= '9' && len(s.seq) < 5:
			s.seq = append(s.seq, b)
		case b >= 0x21 && b <= 0x7e:
			out = s.emit(out, b)
		default:
			s.reset()
			return s.unit(out, b, now)
		}
	case sString:
		switch {
		case b == 0x1b:
			s.state = sStringEsc
		case b == 0x07 && s.osc:
			if !s.discard {
				return s.emit(out, b)
			}
			s.reset()
		case b == 0x18 || b == 0x1a: // CAN and SUB cancel a string
			s.reset()
		case b >= 0x20 && b <= 0x7e && !s.discard:
			if len(s.seq)+3 > maxStringBytes {
				s.discard, s.seq = true, s.seq[:0]
			} else {
				s.seq = append(s.seq, b)
			}
		default: // a control or non-ASCII byte: no terminal replies with these
			s.discard, s.seq = true, s.seq[:0]
		}
	case sStringEsc:
		if b == '\\' {
			if !s.discard {
				out = append(append(out, s.seq...), 0x1b, '\\')
			}
			s.reset()
			return out
		}
		// ESC and anything else cancel the string and begin anew.
		s.begin(sEsc, 0x1b, now)
		return s.unit(out, b, now)
	}
	return out
}

// oldPasteMarker returns pasteStart or pasteEnd for a unit that ultraviolet
// decodes as one, else unit. ultraviolet (decoder.go, parseCsi, case '~')
// reads only a CSI's first parameter, so "\x1b[200;1~", "\x1b[0200:3~" and
// the like open a paste as "\x1b[200~" does; each is rewritten to the one
// spelling the paste bounds count (the second break test found the cap
// skipped by "\x1b[200;1~"). Private markers are skipped too, erring towards
// counting a paste that ultraviolet would not open: that costs nothing.
func oldPasteMarker(unit string) string {
	if len(unit) < 4 || unit[:2] != "\x1b[" || unit[len(unit)-1] != '~' {
		return unit
	}
	p := strings.TrimLeft(unit[2:len(unit)-1], "<=>?")
	end := 0
	for end < len(p) && p[end] >= '0' && p[end] <= '9' {
		end++
	}
	switch strings.TrimLeft(p[:end], "0") {
	case "200":
		return pasteStart
	case "201":
		return pasteEnd
	}
	return unit
}
