// Package cast writes a finished game as an asciinema recording
// (asciicast v2: https://docs.asciinema.org/manual/asciicast/v2/), for
// `ssh host replay ID --cast` and the web's /replay/ID.cast: a header line,
// then one event line per frame the replay player would draw
// (tui.ReplayFrames), at a size, a speed and an idle limit the requester
// picks.
//
// A game keeps no wall-clock time per turn, so the recording keeps a pace
// of its own (Pace): a command every TurnSeconds, longer on a new depth,
// longer still at the start and the end, all divided by the speed and each
// cut to the idle limit. A frame is written as the rows that differ from
// the frame before it (the first one whole), each row erased and redrawn:
// a game of 5,000 turns makes a few megabytes.
//
// It is pure but for the writer it is given: no clock (the header's
// timestamp is the game's end), no goroutines.
package cast

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/tui"
)

// Sizes, speeds and idle limits a recording may be made at, and their
// defaults.
const (
	DefaultWidth  = 80  // cells
	DefaultHeight = 24  // cells
	MinWidth      = 40  // cells: tui.MinWidth, the least the game draws at
	MinHeight     = 12  // cells: tui.MinHeight
	MaxWidth      = 250 // cells; beyond tui.MaxWidth the game is drawn in the top-left part, as on a terminal
	MaxHeight     = 80  // cells; likewise beyond tui.MaxHeight

	DefaultSpeed = 1.0  // times Pace
	MinSpeed     = 0.25 // times Pace
	MaxSpeed     = 32.0 // times Pace, as the replay player's fastest

	DefaultIdle = 2.0  // seconds
	MinIdle     = 0.1  // seconds
	MaxIdle     = 60.0 // seconds
)

// Pace is how long each kind of frame stays on screen at speed 1, in
// seconds, before the next: a command (a turn, or a level-up, which takes
// none), one that took the player deeper, the start and the end. Each is
// divided by the speed, then cut to the idle limit.
const (
	TurnSeconds  = 0.1
	DepthSeconds = 1.5
	StartSeconds = 1.0
	EndSeconds   = 3.0
)

// Options are how a recording is made. The zero value of a field means
// its default.
type Options struct {
	Width, Height int     // the terminal's size, in cells
	Speed         float64 // times Pace: 2 plays twice as fast
	Idle          float64 // the longest any frame stays, in seconds (the header's idle_time_limit too)
}

// ErrBadOption is returned (wrapped, in one line saying what is allowed)
// by Parse and Options.Check for a size, speed or idle limit out of
// bounds or not a number.
var ErrBadOption = errors.New("bad cast option")

// Parse returns the options written as a requester types them: size
// "WIDTHxHEIGHT" in cells ("100x30"), speed a multiplier ("2", "0.5"),
// idle seconds ("1.5"); "" for a default. Its error wraps ErrBadOption
// and says, in one line, what is allowed.
func Parse(size, speed, idle string) (Options, error) {
	o := Options{}.withDefaults() // each given below is checked as given: "0" is no default
	if size != "" {
		w, h, ok := strings.Cut(strings.ToLower(size), "x")
		var errW, errH error
		o.Width, errW = strconv.Atoi(w)
		o.Height, errH = strconv.Atoi(h)
		if !ok || errW != nil || errH != nil {
			return Options{}, sizeError()
		}
	}
	for _, f := range []struct {
		text string
		to   *float64
		err  func() error
	}{{speed, &o.Speed, speedError}, {idle, &o.Idle, idleError}} {
		if f.text == "" {
			continue
		}
		v, err := strconv.ParseFloat(f.text, 64)
		if err != nil || v != v { // NaN
			return Options{}, f.err()
		}
		*f.to = v
	}
	return o, o.check()
}

// withDefaults returns o with each zero field at its default.
func (o Options) withDefaults() Options {
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = DefaultWidth, DefaultHeight
	}
	if o.Speed == 0 {
		o.Speed = DefaultSpeed
	}
	if o.Idle == 0 {
		o.Idle = DefaultIdle
	}
	return o
}

// Check returns an error wrapping ErrBadOption, in one line, when o (with
// its defaults) is out of bounds.
func (o Options) Check() error { return o.withDefaults().check() }

// check is Check of o as it is.
func (o Options) check() error {
	switch {
	case o.Width < MinWidth || o.Width > MaxWidth || o.Height < MinHeight || o.Height > MaxHeight:
		return sizeError()
	case !(o.Speed >= MinSpeed && o.Speed <= MaxSpeed):
		return speedError()
	case !(o.Idle >= MinIdle && o.Idle <= MaxIdle):
		return idleError()
	}
	return nil
}

func sizeError() error {
	return fmt.Errorf("%w: the size is WIDTHxHEIGHT in cells, from %dx%d to %dx%d (default %dx%d)",
		ErrBadOption, MinWidth, MinHeight, MaxWidth, MaxHeight, DefaultWidth, DefaultHeight)
}

func speedError() error {
	return fmt.Errorf("%w: the speed is a number from %g to %g (default %g)", ErrBadOption, MinSpeed, MaxSpeed, DefaultSpeed)
}

func idleError() error {
	return fmt.Errorf("%w: the idle limit is a number of seconds from %g to %g (default %g)", ErrBadOption, MinIdle, MaxIdle, DefaultIdle)
}

// ErrBusy is returned by a server asked for a recording when as many are
// being made as it allows and none finished in time. Its text is the one
// line a requester reads after "grotto: ".
var ErrBusy = errors.New("too many recordings are being made right now; please try again in a minute")

// Game is a finished game as a recording needs it.
type Game struct {
	// Replay is the game at turn 0 as the replay player opens it
	// (server.ReplayGame); with Replay.Replay nil, the recording is its
	// account, one frame.
	Replay tui.ReplayGame
	Data   *content.Tables // the game data (nil: content.Default())
	Ended  time.Time       // when the game ended: the header's timestamp
}

// header is the first line of an asciicast v2 file.
type header struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title"`
	Env       map[string]string `json:"env"`
	Idle      float64           `json:"idle_time_limit"`
}

// Write writes g as an asciicast v2 recording made with o (its fields'
// defaults for zeros) to w: the header, then the replay's frames from
// turn 0 to the end, which it plays g.Replay.Replay to. It returns
// ErrBadOption (wrapped) for options out of bounds, before writing
// anything; ctx's error when ctx ends first (the requester has gone); or
// w's. A long game takes a while: about 1.2 s for 3,200 commands at
// 80x24, 2.4 s at 120x50, on one core (BenchmarkCastOfALongGame).
func Write(ctx context.Context, w io.Writer, g Game, o Options) error {
	o = o.withDefaults()
	if err := o.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err := enc.Encode(header{Version: 2, Width: o.Width, Height: o.Height, Timestamp: g.Ended.Unix(),
		Title: fmt.Sprintf("grotto: %s, game #%d", tui.Inert(g.Replay.Name), g.Replay.ID),
		Env:   map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/sh"}, Idle: o.Idle})
	if err != nil {
		return err
	}
	e := events{enc: enc, w: o.Width, h: o.Height, idle: micros(o.Idle)}
	speed := strconv.FormatFloat(o.Speed, 'f', -1, 64) + "×"
	err = tui.ReplayFrames(g.Replay, g.Data, o.Width, o.Height, speed, func(f tui.ReplayFrame) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.frame(f.Lines); err != nil {
			return err
		}
		e.wait(micros(hold(f.Kind) / o.Speed))
		return nil
	})
	if err != nil {
		return err
	}
	if err := e.out("\x1b[?25h"); err != nil { // the end held, then the cursor back
		return err
	}
	return bw.Flush()
}

// hold is how long a frame of kind k stays at speed 1, in seconds (Pace).
func hold(k tui.FrameKind) float64 {
	switch k {
	case tui.FrameStart:
		return StartSeconds
	case tui.FrameDepth:
		return DepthSeconds
	case tui.FrameEnd:
		return EndSeconds
	}
	return TurnSeconds
}

// micros is s seconds in whole microseconds.
func micros(s float64) int64 { return int64(s*1e6 + 0.5) }

// events writes a recording's event lines: each frame as the cells that
// changed since the one before, at a time that moves on by each frame's
// hold, cut to the idle limit.
type events struct {
	enc     *json.Encoder
	w, h    int   // the screen's size, cells
	idle    int64 // the longest gap between two events, µs
	at      int64 // the time of the last event written, µs
	pending int64 // the time held since then, µs (uncut)
	started bool  // an event has been written
	screen  grid  // what the terminal shows; nil before the first frame
}

// wait holds the screen d µs more before the next event.
func (e *events) wait(d int64) { e.pending += d }

// frame writes what turns the screen into lines: the first frame hides
// the cursor and clears the screen first. A frame that changes nothing
// writes nothing (its time still passes).
func (e *events) frame(lines []string) error {
	var b strings.Builder
	if e.screen == nil {
		b.WriteString("\x1b[?25l\x1b[m\x1b[H\x1b[2J")
		e.screen = newGrid(e.w, e.h)
	}
	next := parseGrid(lines, e.w, e.h)
	diff(&b, e.screen, next)
	e.screen = next
	if b.Len() == 0 {
		return nil
	}
	return e.out(b.String())
}

// out writes one output event of data after the time held, cut to the
// idle limit.
func (e *events) out(data string) error {
	if e.started {
		e.at += min(e.pending, e.idle)
	}
	e.started, e.pending = true, 0
	return e.enc.Encode([]any{json.RawMessage(fmt.Sprintf("%d.%06d", e.at/1e6, e.at%1e6)), "o", data})
}
