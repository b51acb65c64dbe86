package input

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// FuzzInputDecoder feeds arbitrary bytes through the part of a session's
// input path that sees a client's bytes before grotto's model does: the
// rate-limited pump, the sanitizer and the scanner (ultraviolet's
// EventDecoder, the decoder Bubble Tea uses). It skips the program and the drawing that make
// FuzzSessionInput cost about 4 ms a run, so it runs about 1,000 times
// faster and finds what the decoder cannot take in seconds to minutes.
//
// GROTTO_FUZZ_RAW=1 takes the sanitizer away, as before the input path was
// defended: then
//
//	GROTTO_FUZZ_RAW=1 go test ./server -run '^$' -fuzz FuzzInputDecoder
//
// finds a decoder panic by itself: in 3 minutes on 2 cores it found
// "\x9bMMMM" (a C1 CSI, then an X10 mouse report cut short: "slice bounds
// out of range [:6] with capacity 5", 5 bytes that ended the server as the
// 35 bytes of ESC [, 32 semicolons and 0 did). GROTTO_FUZZ_RAW=skip-c1
// skips inputs with a C1 CSI byte, to hunt past that one for those 35.
func FuzzInputDecoder(f *testing.F) {
	for _, seed := range []string{
		"jjjhhkkll..",
		"\x1b[A\x1b[1;5C",
		"\x1b[<0;10;5M",
		"\x1b[97;5u",
		"\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\",
		"\x1b[?64;1;2;6;9;15;16;17;18;21;22;28;29c",
		"\x1bP1+r5463=74727565\x1b\\",
		"\x1b[200~pasted \x1b[A\r\x1b[201~j",
		"\x1b[200~" + strings.Repeat("ab", maxPasteBytes) + "\x1b[201~j",
		"\x1b[200;1~" + strings.Repeat("ab", maxPasteBytes) + "\x1b[201;1~j", // a paste start ultraviolet reads by its first parameter
	} {
		f.Add([]byte(seed))
	}
	raw := os.Getenv("GROTTO_FUZZ_RAW") != ""
	skipC1 := os.Getenv("GROTTO_FUZZ_RAW") == "skip-c1"
	f.Fuzz(func(t *testing.T, data []byte) {
		if skipC1 && bytes.IndexByte(data, 0x9b) >= 0 {
			return
		}
		in := New(context.Background(), bytes.NewReader(data), 0, nil, nil)
		in.raw = raw
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		events, finished := decodeEvents(ctx, in)
		deadline := time.After(waitLong)
		for {
			select {
			case ev := <-events:
				// The decoder never holds more of a paste than its bound.
				if p, ok := ev.(uv.PasteEvent); ok && !raw && len(p.Content) > maxPasteBytes {
					t.Fatalf("a paste of %d bytes reached the program, over the bound of %d", len(p.Content), maxPasteBytes)
				}
			case <-finished:
				return
			case <-deadline:
				t.Fatalf("the decoder had not finished %q after %v", data, waitLong)
			}
		}
	})
}

// decodeEvents runs the part of a session's input path before the
// program: the pump, the sanitizer and the scanner over in, until ctx ends
// or the input does (finished is then closed).
func decodeEvents(ctx context.Context, in *Keyboard) (events <-chan uv.Event, finished <-chan struct{}) {
	in.pumpOnce.Do(func() { go in.pump() })
	evs := make(chan uv.Event)
	done := make(chan struct{})
	go func() {
		defer close(done)
		in.scanEvents(ctx, func(ev uv.Event) {
			select {
			case evs <- ev:
			case <-ctx.Done():
			}
		})
	}()
	return evs, done
}
