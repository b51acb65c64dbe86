package input

// This file is the decoder: the sanitizer's output, whole units, into the
// events a program gets.
//
// It is ultraviolet's TerminalReader less what a session does not need.
// That reader (terminal_reader.go, eventScanner.scanEvents) runs
// ultraviolet's EventDecoder over what it reads, gathers a bracketed paste
// into one PasteEvent, and waits up to its Esc timeout for the rest of a
// sequence. It also builds a key table for every reader (buildKeysTable:
// about 110 KiB a session, the same table for every session since grotto
// reads no terminfo) and runs two goroutines. Behind the sanitizer the
// waiting is already done (a read holds whole units, a lone ESC comes as
// escKey) and the table adds nothing the decoder does not decode by itself:
// TestTheScannerDecodesAsUltravioletsReader compares the two on every
// sequence the table holds. So the scanner is the decoder and the paste,
// called in the keyboard's own goroutine.

import (
	"reflect"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// readSize is the most bytes the scanner is given at once: whole units
// only (the sanitizer's), so a unit (at most maxStringBytes) must fit.
const readSize = 4096

// ignoredType is the type of the event ultraviolet's decoder gives a
// string cancelled by CAN or SUB, which its reader drops (an unexported
// type: found here by decoding one).
var ignoredType = func() reflect.Type {
	var d uv.EventDecoder
	_, ev := d.Decode([]byte("\x1b]0;x\x18"))
	return reflect.TypeOf(ev)
}()

// scanner decodes the sanitizer's output into events, keeping a bracketed
// paste across reads. The zero value is ready.
type scanner struct {
	dec   uv.EventDecoder
	paste []byte // the paste being read since its PasteStartEvent; nil outside one
}

// scan decodes buf, which holds whole units, and calls emit with each
// event in order, as ultraviolet's eventScanner.scanEvents does with a
// buffer whose Esc timeout has expired: a paste's text, keys and
// sequences are gathered into one PasteEvent (sent before its
// PasteEndEvent; sequences in it that decode to nothing are dropped), a
// MultiEvent is sent as its events, and a cancelled string is dropped.
func (s *scanner) scan(buf []byte, emit func(uv.Event)) {
	for len(buf) > 0 {
		n, ev := s.dec.Decode(buf)
		if n <= 0 {
			return // not decoded: cannot happen with a non-empty buffer
		}
		seq := buf[:n]
		buf = buf[n:]
		if s.paste != nil {
			if _, end := ev.(uv.PasteEndEvent); !end {
				if k, ok := ev.(uv.KeyPressEvent); ok {
					if k.Text != "" {
						s.paste = append(s.paste, k.Text...)
					} else {
						s.paste = append(s.paste, seq...)
					}
				}
				continue
			}
		}
		switch e := ev.(type) {
		case nil:
			continue
		case uv.PasteStartEvent:
			s.paste = []byte{}
		case uv.PasteEndEvent:
			emit(uv.PasteEvent{Content: validRunes(s.paste)})
			s.paste = nil
		case uv.MultiEvent:
			emitMulti(e, emit)
			continue
		}
		if reflect.TypeOf(ev) == ignoredType {
			continue
		}
		emit(ev)
	}
}

// emitMulti sends the events of m, the decoder's answer to one sequence
// that means several things: its first key, if it has one, else all of
// them. CSI 1;mod R is both F3 with modifiers and a cursor position report
// on row 1; ultraviolet's reader reads it as the key (its key table has
// it), and grotto never asks where the cursor is. One key at most, since
// one sequence is one key press: ultraviolet makes a win32-input record's
// repeat count into that many presses (the sanitizer drops those records;
// this holds if another such sequence gets through).
func emitMulti(m uv.MultiEvent, emit func(uv.Event)) {
	for _, ev := range m {
		if _, k := ev.(uv.KeyPressEvent); k {
			emit(ev)
			return
		}
	}
	for _, ev := range m {
		emit(ev)
	}
}

// validRunes returns b as a string without its invalid UTF-8, as
// ultraviolet builds a PasteEvent.
func validRunes(b []byte) string {
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		if r != utf8.RuneError {
			out = append(out, r)
		}
		b = b[w:]
	}
	return string(out)
}
