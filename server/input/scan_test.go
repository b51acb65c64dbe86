package input

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// keySequences is what a terminal may send for a key: every byte alone,
// Alt with every byte, the CSI and SS3 keys of VT100, VT220, xterm, urxvt
// and the Linux console (ultraviolet's key table, key_table.go, takes its
// entries from those) with every modifier parameter, and kitty's CSI u.
func keySequences() []string {
	var seqs []string
	for b := range 0x80 {
		seqs = append(seqs, string(rune(b)), "\x1b"+string(rune(b)))
	}
	letters := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for _, f := range letters {
		seqs = append(seqs, "\x1b["+string(f))
		for m := 1; m <= 16; m++ {
			seqs = append(seqs, fmt.Sprintf("\x1b[1;%d%c", m, f))
		}
	}
	for _, f := range "~^@$" {
		for n := range 35 {
			seqs = append(seqs, fmt.Sprintf("\x1b[%d%c", n, f))
			for m := 1; m <= 16; m++ {
				seqs = append(seqs, fmt.Sprintf("\x1b[%d;%d%c", n, m, f))
			}
		}
	}
	finals := letters + "~^@$"
	for _, f := range finals {
		seqs = append(seqs, "\x1bO"+string(f), "\x1b[["+string(f))
		for m := 1; m <= 16; m++ {
			seqs = append(seqs, fmt.Sprintf("\x1bO%d%c", m, f))
		}
	}
	for _, code := range []int{9, 13, 27, 97, 127, 57358, 57399, 57441} {
		for m := 1; m <= 16; m++ {
			seqs = append(seqs, fmt.Sprintf("\x1b[%d;%du", code, m))
		}
	}
	return seqs
}

// readerEvents is what ultraviolet's TerminalReader, with its key table,
// makes of seq read in one piece before the input ends.
func readerEvents(t *testing.T, seq string) []uv.Event {
	t.Helper()
	evs := make(chan uv.Event, 16)
	tr := uv.NewTerminalReader(strings.NewReader(seq), "xterm-256color")
	if err := tr.StreamEvents(context.Background(), evs); err != nil {
		t.Fatalf("%q: %v", seq, err)
	}
	close(evs)
	var out []uv.Event
	for ev := range evs {
		out = append(out, ev)
	}
	return out
}

// scannerEvents is what the scanner makes of seq.
func scannerEvents(seq string) []uv.Event {
	var s scanner
	var out []uv.Event
	s.scan([]byte(seq), func(ev uv.Event) { out = append(out, ev) })
	return out
}

// The scanner leaves out the key table of ultraviolet's reader: no key a
// terminal sends may decode differently for it.
func TestTheScannerDecodesAsUltravioletsReader(t *testing.T) {
	seqs := keySequences()
	// The one difference, on purpose: the table reads CSI 1;mod R as F3
	// for mod 2 to 16, and the scanner (emitMulti) reads CSI 1;1R as F3
	// too, where the reader also reports a cursor position that grotto
	// never asked for.
	known := map[string]bool{"\x1b[1;1R": true}
	var differ []string
	for _, seq := range seqs {
		want, got := readerEvents(t, seq), scannerEvents(seq)
		if !reflect.DeepEqual(want, got) && !known[seq] {
			differ = append(differ, fmt.Sprintf("%q: reader %#v, scanner %#v", seq, want, got))
		}
	}
	t.Logf("%d key sequences compared", len(seqs))
	if len(differ) > 0 {
		t.Errorf("%d of %d sequences decode differently:\n%s", len(differ), len(seqs), strings.Join(differ, "\n"))
	}
}

// One sequence is at most one key press, whatever the decoder makes of it:
// a win32-input record with a repeat count of 300 (which the sanitizer
// drops before the scanner sees it) is one key here.
func TestOneSequenceIsAtMostOneKey(t *testing.T) {
	evs := scannerEvents("\x1b[190;52;46;1;0;300_")
	if len(evs) != 1 {
		t.Fatalf("one win32-input record decodes to %d events", len(evs))
	}
	if k, ok := evs[0].(uv.KeyPressEvent); !ok || k.Text != "." {
		t.Fatalf("it decodes to %#v, want the key .", evs[0])
	}
}

// A paste comes as ultraviolet's reader gives it: its start, one
// PasteEvent with its text (keys and sequences in it as text, invalid
// UTF-8 left out), its end; a cancelled string is dropped; keys before and
// after are keys. Read in pieces, as the sanitizer's units arrive.
func TestTheScannerGathersAPasteAcrossReads(t *testing.T) {
	input := "j\x1b[200~ab\x1b[A\r\xffc\x1b]0;x\x18d\x1b[201~k"
	want := readerEvents(t, input)
	pieces := []string{"j", "\x1b[200~", "ab", "\x1b[A", "\r\xff", "c", "\x1b]0;x\x18", "d", "\x1b[201~", "k"}
	var s scanner
	var got []uv.Event
	for _, p := range pieces {
		s.scan([]byte(p), func(ev uv.Event) { got = append(got, ev) })
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("a paste read in pieces:\n got %#v\nwant %#v", got, want)
	}
	if len(got) != 5 {
		t.Fatalf("%d events, want j, the paste's start, text and end, and k: %#v", len(got), got)
	}
	if p, ok := got[2].(uv.PasteEvent); !ok || p.Content != "ab\x1b[A\rcd" {
		t.Fatalf("the paste is %#v", got[2])
	}
	// Outside a paste, a string cancelled by CAN is nothing at all.
	if evs := scannerEvents("\x1b]0;x\x18"); len(evs) != 0 {
		t.Fatalf("a cancelled string decodes to %#v", evs)
	}
}
