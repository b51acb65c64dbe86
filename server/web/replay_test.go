package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/tui"
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
