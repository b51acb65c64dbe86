package cast

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
)

// finishedGame plays seed to its end with policy and returns it as a
// recording opens it, with the game at its end.
func finishedGame(t testing.TB, seed uint64, policy bot.Policy) (Game, *game.Game) {
	t.Helper()
	data := content.Default()
	g := game.New(seed, data)
	v := bot.NewView(g)
	for i := 0; i < 50000 && !g.Over(); i++ {
		c := policy.Decide(v)
		if _, err := g.Apply(c); err != nil {
			c = game.Wait()
			if g.Growth().Pending {
				c = game.LevelUp(game.Stat(1))
			}
			if _, err := g.Apply(c); err != nil {
				t.Fatalf("%+v refused: %v", c, err)
			}
		}
		v.Refresh()
	}
	if !g.Over() {
		t.Fatal("the game did not end")
	}
	h, _ := g.HistoryBlob()
	r, err := replay.New(replay.Record{Seed: seed, Rules: game.Rules(data), History: h, Hash: g.StateHash(),
		Points: g.Score(), Cause: g.Cause()}, data)
	if err != nil {
		t.Fatal(err)
	}
	return Game{Replay: tui.ReplayGame{ID: 7, Name: "ann\x1b[31m", Replay: r, Turns: g.Turn()}, Data: data,
		Ended: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}, g
}

// event is one event line of a recording.
type event struct {
	at   float64
	kind string
	data string
}

// read parses a recording: its header and its events, failing t on
// anything asciicast v2 does not allow.
func read(t *testing.T, b []byte) (header, []event) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatal("no header line")
	}
	var h header
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		t.Fatalf("header %q: %v", sc.Text(), err)
	}
	var evs []event
	for sc.Scan() {
		var raw []any
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("event line %q: %v", sc.Text(), err)
		}
		at, ok1 := raw[0].(float64)
		kind, ok2 := raw[1].(string)
		data, ok3 := raw[2].(string)
		if !ok1 || !ok2 || !ok3 {
			t.Fatalf("event line %q is not [time, code, data]", sc.Text())
		}
		evs = append(evs, event{at, kind, data})
	}
	return h, evs
}

// screen is what a terminal of w x h shows after every event's output.
func screen(evs []event, w, h int) string {
	emu := vt.NewEmulator(w, h)
	for _, e := range evs {
		emu.Write([]byte(e.data))
	}
	return emu.String()
}

// TestACastEndsOnTheReplaysLastFrame: a recording at the size asked has
// asciicast v2's header (the size, the game's end as its timestamp, the
// player's name inert in its title, the idle limit), and a terminal of
// that size shows, at its end, the replay player's last frame: whose
// replay, the game's last turn, how it ended, checked.
func TestACastEndsOnTheReplaysLastFrame(t *testing.T) {
	g, end := finishedGame(t, 247, bot.Diver("diver", bot.AllItems()))
	var b bytes.Buffer
	if err := Write(context.Background(), &b, g, Options{Width: 100, Height: 30}); err != nil {
		t.Fatal(err)
	}
	h, evs := read(t, b.Bytes())
	if h.Version != 2 || h.Width != 100 || h.Height != 30 || h.Timestamp != g.Ended.Unix() || h.Idle != DefaultIdle || h.Env["TERM"] != "xterm-256color" {
		t.Errorf("header %+v", h)
	}
	if strings.ContainsRune(h.Title, '\x1b') || !strings.Contains(h.Title, "ann") || !strings.Contains(h.Title, "#7") {
		t.Errorf("title %q: not the player's name, inert, and the game", h.Title)
	}
	s := screen(evs, 100, 30)
	flat := strings.Join(strings.Fields(s), " ")
	for _, want := range []string{"Replay of ann", "turn " + itoa(end.Turn()) + "/" + itoa(end.Turn()),
		"the end: " + game.ThirdPerson(end.Cause()) + ", checked", "1×"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the last frame lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(flat, "space pause") || strings.Contains(flat, "? help") {
		t.Errorf("the recording names keys it has not:\n%s", s)
	}
	for _, e := range evs {
		if e.kind != "o" {
			t.Fatalf("event of kind %q", e.kind)
		}
		if strings.Contains(e.data, "\x1b[31m") {
			t.Fatalf("the name's escape reached the recording: %q", e.data)
		}
	}
}

// TestTheCastKeepsItsPaceAndItsIdleLimit: times only go forward, no two
// events are further apart than the idle limit, a new depth or the end
// holds longer than a turn, and at twice the speed the whole is half as
// long.
func TestTheCastKeepsItsPaceAndItsIdleLimit(t *testing.T) {
	g, _ := finishedGame(t, 247, bot.Diver("diver", bot.AllItems()))
	length := func(o Options) (float64, []event) {
		g.Replay.Replay.Seek(0)
		var b bytes.Buffer
		if err := Write(context.Background(), &b, g, o); err != nil {
			t.Fatal(err)
		}
		_, evs := read(t, b.Bytes())
		for i := 1; i < len(evs); i++ {
			gap := evs[i].at - evs[i-1].at
			if gap < 0 || gap > o.Idle+1e-6 {
				t.Fatalf("events %d and %d are %.6f s apart (idle limit %g s)", i-1, i, gap, o.Idle)
			}
		}
		return evs[len(evs)-1].at, evs
	}
	one, evs := length(Options{Idle: 5})
	if last := evs[len(evs)-1].at - evs[len(evs)-2].at; last < EndSeconds-1e-6 {
		t.Errorf("the end is held %.3f s, not %g s", last, EndSeconds)
	}
	long := 0
	for i := 1; i < len(evs); i++ {
		if evs[i].at-evs[i-1].at >= DepthSeconds-1e-6 {
			long++
		}
	}
	if long < 3 { // the start, a new depth at least, the end
		t.Errorf("only %d frames are held longer than a turn", long)
	}
	two, _ := length(Options{Speed: 2, Idle: 5})
	if d := two - one/2; d > 0.01 || d < -0.01 {
		t.Errorf("at 2× the recording lasts %.3f s, at 1× %.3f s", two, one)
	}
	capped, _ := length(Options{Idle: 0.5})
	if capped >= one {
		t.Errorf("an idle limit of 0.5 s left the recording at %.3f s (%.3f s at 5 s)", capped, one)
	}
}

// TestBadOptionsAreRefusedInOneLine: a size, speed or idle limit out of
// bounds or not a number is refused with a line saying what is allowed,
// and nothing is written.
func TestBadOptionsAreRefusedInOneLine(t *testing.T) {
	for _, c := range []struct{ size, speed, idle, says string }{
		{"80", "", "", "WIDTHxHEIGHT"},
		{"80x", "", "", "WIDTHxHEIGHT"},
		{"39x24", "", "", "40x12 to 250x80"},
		{"80x11", "", "", "40x12 to 250x80"},
		{"251x24", "", "", "40x12 to 250x80"},
		{"80x81", "", "", "40x12 to 250x80"},
		{"-80x24", "", "", "WIDTHxHEIGHT"},
		{"", "0.1", "", "speed is a number from 0.25 to 32"},
		{"", "33", "", "speed"},
		{"", "NaN", "", "speed"},
		{"", "fast", "", "speed"},
		{"", "Inf", "", "speed"},
		{"", "", "0", "idle limit is a number of seconds from 0.1 to 60"},
		{"", "", "61", "idle"},
		{"", "", "-1", "idle"},
	} {
		_, err := Parse(c.size, c.speed, c.idle)
		if !errors.Is(err, ErrBadOption) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q, %q, %q) = %v, want one line saying %q", c.size, c.speed, c.idle, err, c.says)
		}
	}
	o, err := Parse("250X80", "0.25", "60")
	if err != nil || o != (Options{Width: 250, Height: 80, Speed: 0.25, Idle: 60}) {
		t.Errorf("the largest options: %+v, %v", o, err)
	}
	if o, err := Parse("", "", ""); err != nil || o != (Options{Width: 80, Height: 24, Speed: 1, Idle: 2}) {
		t.Errorf("the defaults: %+v, %v", o, err)
	}
	var b bytes.Buffer
	if err := Write(context.Background(), &b, Game{}, Options{Width: 10, Height: 10}); !errors.Is(err, ErrBadOption) || b.Len() != 0 {
		t.Errorf("Write with a bad size: %v, %d bytes written", err, b.Len())
	}
}

// TestACastStopsWhenItsRequesterHasGone: Write returns ctx's error and
// stops drawing once ctx ends.
func TestACastStopsWhenItsRequesterHasGone(t *testing.T) {
	g, _ := finishedGame(t, 247, bot.Diver("diver", bot.AllItems()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Write(ctx, &bytes.Buffer{}, g, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Write after its context ended: %v", err)
	}
	if g.Replay.Replay.Pos() > 1 {
		t.Errorf("it replayed %d commands for no one", g.Replay.Replay.Pos())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
