package input

// This file is a session's keyboard: the bytes a client types, checked and
// decoded by grotto before they reach the session's Bubble Tea program.
//
// Two upstream faults make Bubble Tea's own input path unsafe for input
// from strangers:
//
//   - x/ansi v0.11.9 parser_decode.go:200, decodeSequence (ParamsState),
//     writes p.params[p.paramsLen] without checking paramsLen against the
//     32 parameters of the parser that ultraviolet's
//     eventScanner.deserializeWin32Input (terminal_reader.go:463) takes
//     from ansi.GetParser. ESC [ with 32 separators and then a digit or ':'
//     panics with "index out of range [32] with length 32" in Bubble Tea's
//     input goroutine, outside every recover: the whole server exits.
//   - ultraviolet's TerminalReader.sendEvents (terminal_reader.go:232)
//     sends each event to the program without watching its context. Once
//     the program has quit (taken over, or S with more keys in the same
//     write) nobody receives, and the goroutine and the program it holds
//     (about 0.6 MB) stay for ever.
//
// So grotto gives Bubble Tea no input at all (tea.WithInput(nil)), and
// runs the decoding itself: a sanitizer passes on only complete, bounded
// sequences; ultraviolet's EventDecoder decodes them under recover, in the
// keyboard's own goroutine (scan.go); and every event goes in with
// Program.Send, which returns once the program has ended. Neither Bubble
// Tea nor grotto builds a key table (ultraviolet's buildKeysTable, about
// 110 KiB a reader) or runs reader goroutines, but Bubble Tea no longer
// asks the terminal its questions
// either, since it could not read the answers: the keyboard asks them
// (queries), and the answers come back through the decoder as before.
// Nor does it ask for the keyboard enhancements (modifyOtherKeys, the kitty
// protocol's flags): the keyboard's Terminal asks for them on the
// alternate screen and undoes them before it is left (terminal.go).

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/server/metrics"
)

// Bounds of what a client may send as one escape sequence. Anything longer
// is dropped whole (read up to its end and never decoded).
const (
	// maxCSIParams is the most parameters (and sub-parameters) one CSI or
	// DCS header may have. x/ansi's parser panics at 33 (see above); the
	// longest a real terminal sends is a primary device attributes reply,
	// 13 parameters from xterm (CSI ? 64;1;2;6;9;15;16;17;18;21;22;28;29 c).
	maxCSIParams = 16
	// maxCSIBytes is the longest CSI or DCS header, ESC [ and final byte
	// included, in bytes: that xterm reply is 45.
	maxCSIBytes = 64
	// maxStringBytes is the longest OSC, DCS, APC, PM or SOS string, in
	// bytes with its introducer and terminator. It stays under the
	// scanner's read size (readSize, 4096 bytes) so that a sequence always
	// reaches the decoder in one piece.
	maxStringBytes = 4000
	// escWait is how long a lone ESC waits for the rest of a sequence
	// before it is the Esc key: Bubble Tea's own uv.DefaultEscTimeout.
	escWait = uv.DefaultEscTimeout
	// seqWait is how long an unfinished sequence (a reply cut in two by the
	// network) is held before it is dropped, so that a stray Alt+] or Alt+P
	// cannot swallow the player's keys for ever.
	seqWait = 2 * time.Second
)

// escKey is the Esc key written so that nothing after it can join it: the
// kitty keyboard protocol's CSI 27 u, which ultraviolet decodes to the same
// KeyPressEvent as a lone ESC.
const escKey = "\x1b[27u"

// Keyboard is one session's keyboard: a pump reading the client, shared by
// the programs the session makes (only one of which runs).
type Keyboard struct {
	ctx    context.Context
	src    io.Reader
	perSec int
	log    *log.Logger

	pumpOnce sync.Once
	doneOnce sync.Once
	chunks   chan []byte // what the client sent, as read; closed at its end

	mu   sync.Mutex // held by the one decoder reading the fields below
	san  sanitizer
	in   []byte // read from chunks, not yet sanitized
	out  []byte // sanitized, not yet decoded
	eof  bool   // chunks is closed and drained
	done chan struct{}

	endMsg tea.Msg // sent to the program once the input has ended (EndWith); nil for none

	raw       bool         // tests only: no sanitizer and no recover, as before the fix
	recovered atomic.Int64 // decoder panics caught: each is an upstream bug the sanitizer let through
	// clock times each key to the frame that answers it (metrics.KeyClock:
	// lock-free, no allocation); nil measures nothing.
	clock *metrics.KeyClock
}

// New returns the keyboard of a session whose client sends src, read at
// most perSec bytes a second (0 for no limit; a flood waits, as for typed
// input), logging
// decoder panics to logger (nil logs nothing) and timing each key to its
// frame on clock (nil measures nothing). It reads src once the first
// program made with Option starts, until src or ctx ends.
func New(ctx context.Context, src io.Reader, perSec int, logger *log.Logger, clock *metrics.KeyClock) *Keyboard {
	return &Keyboard{ctx: ctx, src: src, perSec: perSec, log: logger, clock: clock,
		chunks: make(chan []byte), done: make(chan struct{})}
}

// Panics returns how many decoder panics were caught: each is an upstream
// bug the sanitizer let through.
func (in *Keyboard) Panics() int64 { return in.recovered.Load() }

// EndWith makes the keyboard send msg to the program it serves once the
// client's input has ended (an SSH EOF) and every event before it has
// been sent. Call it before Start. Without it the program hears nothing
// and runs until it ends by itself.
func (in *Keyboard) EndWith(msg tea.Msg) { in.endMsg = msg }

// Consumed is closed once the client's input has ended and every event in
// it has been handed to the program.
func (in *Keyboard) Consumed() <-chan struct{} { return in.done }

// queries are what Bubble Tea asks a terminal when it reads the input
// itself (tea.go, Program.Run and Model.Init's capability requests):
// whether it supports synchronized output (mode 2026) and grapheme widths
// (mode 2027), and whether it has true colour (XTGETTCAP RGB and Tc).
// Bubble Tea reacts to the answers (ModeReportMsg, CapabilityMsg) however
// they reach it. The keyboard's Terminal writes them in front of the
// program's first frame; upstream queues them for its next frame, and a
// program that ended before that frame wrote them after it had left the
// alternate screen, where the terminal answered into the player's shell.
var queries = ansi.RequestModeSynchronizedOutput + ansi.RequestModeUnicodeCore +
	ansi.RequestTermcap("RGB") + ansi.RequestTermcap("Tc")

// Option makes each program made with it read no input of its own: its
// keys come from this keyboard only, once Start has been called for it.
// A session may make several programs with one keyboard (a claim tried
// again makes a new one) and runs one of them.
func (in *Keyboard) Option() tea.ProgramOption {
	return tea.WithInput(nil)
}

// Start decodes keys for p, made with Option, from when it runs until it
// ends: a goroutine waits until p's event loop runs, then serves p. Call
// it for the program that is about to run, once: the goroutine waits for
// p's Run (or the end of its context), so a program that never runs would
// keep it. The terminal's answers to the queries (Terminal) are keys like
// any other: read once p runs.
func (in *Keyboard) Start(p *tea.Program) { go in.start(p) }

// start waits until p runs, then serves it until it ends.
func (in *Keyboard) start(p *tea.Program) {
	// Send returns once p's event loop took the message (or the session
	// ended); the loop drops a nil message (tea.go, eventLoop).
	p.Send(nil)
	if in.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(in.ctx)
	go func() {
		// The event loop took the message, so Run has made p's finished
		// channel: Wait is safe here.
		p.Wait()
		cancel()
	}()
	in.serve(ctx, p)
}

// serve decodes the client's input into events for p until p ends (ctx) or
// the input does.
func (in *Keyboard) serve(ctx context.Context, p *tea.Program) {
	in.pumpOnce.Do(func() { go in.pump() })
	for {
		r, ended := in.decode(ctx, p)
		if r == nil {
			if ended {
				in.doneOnce.Do(func() { close(in.done) })
				if in.endMsg != nil {
					p.Send(in.endMsg) // returns at once if p has ended
				}
			}
			return
		}
		in.recovered.Add(1)
		if in.log != nil {
			in.log.Error("input decoder panicked; dropped what it held", "panic", fmt.Sprint(r))
		}
	}
}

// decode reads the sanitized input and sends p its events, in the
// calling goroutine, until p ends (ctx) or the input does. It returns what
// a panic in the decoder recovered (what the scanner held is dropped, and
// the caller starts another), or nil and whether the input has ended.
func (in *Keyboard) decode(ctx context.Context, p *tea.Program) (recovered any, ended bool) {
	return in.scanEvents(ctx, func(ev uv.Event) {
		if fromClient(ev) {
			_, key := ev.(uv.KeyPressEvent)
			if key {
				in.clock.Key()
			}
			p.Send(ev) // returns at once if p has ended
			if key && in.clock != nil {
				// Send returns once the event loop has taken the message,
				// which it does after the key's Update and view: the key
				// is handled, and a frame that draws nothing after this
				// means it changed nothing (metrics.KeyClock). The loop
				// drops a nil message.
				p.Send(nil)
				in.clock.Handled()
			}
		}
	})
}

// scanEvents is decode with the events given to send, unfiltered.
func (in *Keyboard) scanEvents(ctx context.Context, send func(uv.Event)) (recovered any, ended bool) {
	if !in.raw {
		defer func() {
			if r := recover(); r != nil {
				recovered, ended = r, false
			}
		}()
	}
	f := feed{in: in, ctx: ctx}
	var sc scanner
	buf := make([]byte, readSize)
	for {
		n, err := f.Read(buf)
		sc.scan(buf[:n], send)
		if err != nil {
			in.mu.Lock()
			drained := in.eof && len(in.in) == 0 && len(in.out) == 0
			in.mu.Unlock()
			return nil, drained && ctx.Err() == nil
		}
	}
}

// pump reads the client into chunks until it ends.
func (in *Keyboard) pump() {
	defer close(in.chunks)
	r := newLimitedReader(in.ctx, in.src, in.perSec)
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			in.clock.Read()
			// A copy of what was read, not the buffer: a key is a few
			// bytes, and a 4 KiB buffer a read was 13% of the bytes a
			// session allocated per key (each one more for the GC).
			select {
			case in.chunks <- append([]byte(nil), buf[:n]...):
			case <-in.ctx.Done():
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// feed is the sanitized input as the scanner reads it, whole units at a
// time; it ends with io.EOF when ctx does.
type feed struct {
	in  *Keyboard
	ctx context.Context
}

func (f *feed) Read(p []byte) (int, error) {
	in := f.in
	in.mu.Lock()
	defer in.mu.Unlock()
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		if f.ctx.Err() != nil {
			return 0, io.EOF
		}
		if n := in.take(p); n > 0 {
			return n, nil
		}
		if len(in.in) > 0 {
			continue
		}
		if in.eof {
			in.out = in.san.end(in.out)
			if len(in.out) > 0 {
				continue
			}
			return 0, io.EOF
		}
		if !f.await(&timer) {
			return 0, io.EOF
		}
	}
}

// take sanitizes as much of the bytes read as fits in p (a sequence never
// straddles two reads, where the decoder could time it out half-way) and
// copies out what is ready, returning how many bytes. in.mu is held.
func (in *Keyboard) take(p []byte) int {
	if in.raw {
		in.out, in.in = append(in.out, in.in...), in.in[:0]
	}
	now := time.Now() // one reading for the bytes that arrived together
	for len(in.in) > 0 && (len(in.out)+in.san.held()+len(escKey)+1 <= len(p) || len(in.out) == 0) {
		in.out = in.san.step(in.out, in.in[0], now)
		in.in = in.in[1:]
	}
	if len(in.out) == 0 {
		return 0
	}
	n := copy(p, in.out)
	in.out = in.out[:copy(in.out, in.out[n:])]
	return n
}

// await waits, in.mu held, for the next chunk of the client's bytes, the
// end of them (in.eof), or the sanitizer's deadline for a sequence it
// holds (which it then expires), on *timer, made once and reset. It
// returns false when f's context ends.
func (f *feed) await(timer **time.Timer) bool {
	in := f.in
	var wake <-chan time.Time
	if d := in.san.deadline(); !d.IsZero() {
		if *timer == nil {
			*timer = time.NewTimer(time.Until(d))
		} else {
			(*timer).Reset(time.Until(d))
		}
		wake = (*timer).C
	}
	select {
	case <-f.ctx.Done():
		return false
	case chunk, ok := <-in.chunks:
		if !ok {
			in.eof = true
			return true
		}
		in.in = append(in.in, chunk...)
	case now := <-wake:
		in.out = in.san.expire(in.out, now)
	}
	return true
}

// fromClient reports whether an event decoded from the client's bytes may
// reach the program. Sizes may not: ultraviolet decodes a window report
// (CSI 8;rows;cols t, CSI 48;rows;cols;ph;pw t) into a WindowSizeEvent that
// Bubble Tea hands to its renderer unclamped, so one typed
// "\x1b[8;1000;1024t" made it allocate 1024x1000 cells (221 MB). The window
// size comes only from the SSH channel, clamped (server/guard).
func fromClient(ev uv.Event) bool {
	switch ev.(type) {
	case uv.WindowSizeEvent, uv.PixelSizeEvent, uv.CellSizeEvent:
		return false
	case uv.MultiEvent:
		return false // not sent by the decoder ultraviolet builds here; never trusted
	}
	return true
}
