package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/store"
)

// oneReplay serves finished game "1": a game of 40 waits, recorded as it
// stood (it never ended, so a replay stops short of a checked end, which
// these tests do not reach).
type oneReplay struct{}

func (oneReplay) ReplayGame(id string) (tui.ReplayGame, error) {
	if id != "1" {
		return tui.ReplayGame{}, errors.New("No finished game " + id + ".")
	}
	data := content.Default()
	g := game.New(3, data)
	for range 40 {
		g.Apply(game.Wait())
	}
	hist, _ := g.HistoryBlob()
	r, err := replay.New(replay.Record{Seed: 3, Rules: game.Rules(data), History: hist}, data)
	return tui.ReplayGame{ID: 1, Name: "<ann>", Replay: r, Turns: g.Turn()}, err
}

// TestAReplayPagePlaysTheGameAndTakesOnlyTheReplayKeys: /replay/1 names
// the game, escaped, and its WebSocket plays it back: the replay keys sent
// as {"key":…} pause, step and speed it; a key that is not a replay key
// closes the page with 1003; q ends the replay, closing with 1000. The
// front page links the score's replay.
func TestAReplayPagePlaysTheGameAndTakesOnlyTheReplayKeys(t *testing.T) {
	s := newSite(t, Config{Replays: oneReplay{}})
	status, _, body := get(t, s.http.URL+"/replay/1")
	if status != http.StatusOK || !strings.Contains(body, "&lt;ann&gt;") || !strings.Contains(body, "/assets/replay.js") {
		t.Fatalf("the replay page: status %d:\n%s", status, body)
	}
	if status, _, body := get(t, s.http.URL+"/replay/2"); status != http.StatusNotFound || !strings.Contains(body, "No finished game 2") {
		t.Errorf("an unknown replay: status %d:\n%s", status, body)
	}
	if status, _, _ := get(t, s.http.URL+"/assets/replay.js"); status != http.StatusOK {
		t.Errorf("replay.js: status %d", status)
	}
	if _, err := s.db.FinishGame("SHA256:a", store.Score{Name: "ann", Points: 5, Cause: "killed", Date: time.Now(),
		Game: &store.GameRecord{Rules: "x"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, body := get(t, s.http.URL+"/"); !strings.Contains(body, `href="/replay/1"`) {
		t.Errorf("the front page does not link the score's replay:\n%s", body)
	}

	c := dialReplay(t, s)
	key := func(k string) {
		t.Helper()
		if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"key":"`+k+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	emu := vt.NewEmulator(80, 24)
	go io.Copy(io.Discard, emu)
	screen := func(ok func(string) bool) string { // one terminal for the whole replay
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		defer cancel()
		for {
			if s := emu.String(); ok(s) {
				return s
			}
			typ, data, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("reading the replay: %v; the screen:\n%s", err, emu.String())
			}
			if typ == websocket.MessageBinary {
				emu.Write(data)
			}
		}
	}
	screen(func(s string) bool { return strings.Contains(s, "Replay of <ann> · turn ") })
	key("space")
	s1 := screen(func(s string) bool { return strings.Contains(s, "· paused") })
	var pos int
	fmt.Sscanf(s1[strings.Index(s1, "· turn ")+len("· turn "):], "%d", &pos)
	key(".")
	screen(func(s string) bool { return strings.Contains(s, fmt.Sprintf("turn %d/40 · 1× · paused", pos+1)) })
	key("+")
	key("+")
	screen(func(s string) bool { return strings.Contains(s, "· 4× · paused") })
	key("?") // the status line's "? help": the replay's keys, then back
	screen(func(s string) bool { return strings.Contains(s, "Replay keys") })
	key("?")
	screen(func(s string) bool {
		return !strings.Contains(s, "Replay keys") && strings.Contains(s, "· 4× · paused")
	})
	key("q")
	if ce := closed(t, c); ce.Code != websocket.StatusNormalClosure || ce.Reason != "The replay has ended." {
		t.Errorf("q: closed with %v %q", ce.Code, ce.Reason)
	}

	c = dialReplay(t, s)
	key("x")
	if ce := closed(t, c); ce.Code != websocket.StatusUnsupportedData {
		t.Errorf("a key that is not the replay's: closed with %v %q, want 1003", ce.Code, ce.Reason)
	}
}

func dialReplay(t *testing.T, s *site) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.http.URL, "http")+"/replay/1/ws?cols=80&rows=24", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// ReplayTitle implements Replays.
func (o oneReplay) ReplayTitle(id string) (string, error) {
	if id != "1" {
		return "", errors.New("No finished game " + id + ".")
	}
	return "<ann>", nil
}

// todaysDaily is finished game "1" as today's daily: not to be shown, and
// counting each time its record is loaded (ReplayGame).
type todaysDaily struct{ loads *atomic.Int64 }

func (d todaysDaily) ReplayGame(id string) (tui.ReplayGame, error) {
	d.loads.Add(1)
	return tui.ReplayGame{}, errors.New("This is today's daily challenge: its replay opens after 00:00 UTC.")
}

func (d todaysDaily) ReplayTitle(id string) (string, error) {
	return "", errors.New("This is today's daily challenge: its replay opens after 00:00 UTC.")
}

// TestATodaysDailyReplayIsRefusedWithoutLoadingItsRecord: the
// replay page and socket of a daily not over are refused, saying why,
// before its whole record is loaded (a flood of them cost a core).
func TestATodaysDailyReplayIsRefusedWithoutLoadingItsRecord(t *testing.T) {
	var loads atomic.Int64
	s := newSite(t, Config{Replays: todaysDaily{&loads}})
	for _, path := range []string{"/replay/1", "/replay/1/ws?cols=80&rows=24"} {
		status, _, body := get(t, s.http.URL+path)
		if status != http.StatusNotFound || !strings.Contains(body, "its replay opens after 00:00 UTC") {
			t.Errorf("%s: status %d:\n%s", path, status, body)
		}
	}
	if n := loads.Load(); n != 0 {
		t.Errorf("refusing today's daily loaded its record %d times, want 0", n)
	}
}

// countKeys counts the key presses its model is given.
type countKeys struct {
	tea.Model
	n *atomic.Int64
}

func (m countKeys) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		m.n.Add(1)
	}
	next, cmd := m.Model.Update(msg)
	return countKeys{next, m.n}, cmd
}

// TestAKeyFloodReachesAReplayAtTheKeyRate: a page that sends
// 300 keys at once gets ReplayKeyBurst to its program, then
// ReplayKeysPerSec a second: counted, not timed (the bound is what the
// limiter allows in the time elapsed, whatever the machine's load).
func TestAKeyFloodReachesAReplayAtTheKeyRate(t *testing.T) {
	s := newSite(t, Config{Replays: oneReplay{}})
	var n atomic.Int64
	s.srv.replayModel = func(m tea.Model) tea.Model { return countKeys{m, &n} }
	c := dialReplay(t, s)
	start := time.Now()
	for range 300 {
		if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"key":"."}`)); err != nil {
			t.Fatal(err)
		}
	}
	go func() { // the page reads its frames
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	// More than the burst, or waitLong: the check below holds either way
	// (it bounds what came by the time elapsed).
	await.Within(waitLong, func() bool { return n.Load() >= ReplayKeyBurst+5 })
	got, elapsed := n.Load(), time.Since(start)
	if most := ReplayKeyBurst + int64(elapsed.Seconds()*ReplayKeysPerSec) + 1; got > most {
		t.Errorf("a flood of 300 keys reached the replay as %d keys in %v, want at most %d (%d a second after %d)",
			got, elapsed, most, ReplayKeysPerSec, ReplayKeyBurst)
	}
}

// TestReplayPagesPastMaxReplaysAreToldWhyWhileWatchersGetIn:
// replay pages have a budget of their own: past MaxReplays a replay page
// is closed with 1013 and TooManyReplays, and a watch page still gets in
// under a MaxWatchers of 1.
func TestReplayPagesPastMaxReplaysAreToldWhyWhileWatchersGetIn(t *testing.T) {
	s := newSite(t, Config{Replays: oneReplay{}, MaxWatchers: 1, MaxReplays: 1})
	first := dialReplay(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if _, _, err := first.Read(ctx); err != nil { // its first frame: it is in
		t.Fatal(err)
	}
	over := dialReplay(t, s)
	if ce := closed(t, over); ce.Code != websocket.StatusTryAgainLater || ce.Reason != TooManyReplays {
		t.Errorf("a second replay page over a budget of 1: %v %q, want 1013 %q", ce.Code, ce.Reason, TooManyReplays)
	}
	slot := s.play(t, "bob", 1, 0)
	c, _, err := dialWatch(t, s, slot.ID())
	if err != nil {
		t.Fatal(err)
	}
	screen(t, c, func(s string) bool { return strings.Contains(s, "Turn: 0") })
}
