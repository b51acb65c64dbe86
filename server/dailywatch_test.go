package server

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// serveClocked is serve with the server's one clock reading *now (set
// before it serves, so that every part of it reads the same clock).
func serveClocked(t *testing.T, cfg Config, now *atomic.Pointer[time.Time]) (*Server, string) {
	t.Helper()
	cfg.Clock = func() time.Time { return *now.Load() }
	return serve(t, cfg)
}

// startDaily names a new key name and starts today's daily on c.
func startDaily(t *testing.T, c *sshtest.Client, name string) {
	t.Helper()
	screen, err := c.WaitFor(context.Background(), func(s string) bool {
		return strings.Contains(s, "New game") || strings.Contains(s, "Choose the name")
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(screen, "Choose the name") {
		c.Send("\x15" + name + "\r")
		waitText(t, c, "New game")
	}
	c.Send("d")
	waitText(t, c, "Turn: 0")
}

// TestTodaysDailyIsHiddenFromWatchers: while its UTC day goes on, a game
// of the daily challenge is listed by `who` and the front page as hidden
// until 00:00 UTC, with no watch link; it is absent from the SSH title's
// watch list, which says why; its watch page and WebSocket are refused
// with that reason, and the lobby hands its frames to no one, since
// anyone (a browser with no key too) could still play that dungeon. The
// same key's second session may still watch it (its own game). After
// 00:00 UTC it may be watched, as its replay may be.
func TestTodaysDailyIsHiddenFromWatchers(t *testing.T) {
	var now atomic.Pointer[time.Time]
	late := time.Date(2026, 12, 2, 23, 58, 0, 0, time.UTC)
	now.Store(&late)
	srv, addr := serveClocked(t, Config{HTTP: "127.0.0.1:0"}, &now)
	base := "http://" + srv.HTTPAddr().String()
	annKey := newKey(t)
	ann := dial(t, addr, annKey, 80, 24)
	name := fmt.Sprintf("daily%d", names.Add(1))
	startDaily(t, ann, name)

	out, _, status := run(t, login(t, addr, "x", newKey(t)), "who")
	row := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, name+" ") {
			row = l
		}
	}
	if status != 0 || !strings.Contains(row, "2026-12-02") || !strings.Contains(row, "hidden until 00:00 UTC") {
		t.Errorf("who does not list %s's daily as hidden: status %d:\n%s", name, status, out)
	}
	if !strings.Contains(out, "while anyone may still play it") {
		t.Errorf("who does not say why the daily is hidden:\n%s", out)
	}
	var id uint64
	for _, g := range srv.place.live.Games() {
		if g.Name == name {
			id = g.ID
		}
	}
	if id == 0 {
		t.Fatalf("%s is not in the lobby: %+v", name, srv.place.live.Games())
	}
	if _, stop, ok := srv.place.live.Watch(id); ok {
		stop()
		t.Error("the lobby lets anyone watch today's daily")
	}

	if links, _ := webGames(t, base); links[name] != "" {
		t.Errorf("the front page links today's daily to be watched: %s", links[name])
	}
	if _, body := get(t, http.DefaultClient, base+"/"); !strings.Contains(body, name) || !strings.Contains(body, "hidden until 00:00 UTC") {
		t.Errorf("the front page does not list %s's daily as hidden:\n%s", name, body)
	}
	const why = "This is today's daily challenge: it cannot be watched until 00:00 UTC, while anyone may still play it."
	page := base + "/watch/" + strconv.FormatUint(id, 10)
	if code, body := get(t, http.DefaultClient, page); code != http.StatusForbidden || !strings.Contains(html.UnescapeString(body), why) {
		t.Errorf("/watch/%d of today's daily: %d, want %d saying %q:\n%s", id, code, http.StatusForbidden, why, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(page, "http")+"/ws?cols=80&rows=24", nil)
	if err != nil {
		t.Errorf("the watch WebSocket of today's daily: %v, want a close that says why", err)
	} else {
		defer ws.CloseNow()
		for {
			typ, data, err := ws.Read(ctx)
			if err != nil {
				var ce websocket.CloseError
				if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || ce.Reason != why {
					t.Errorf("the watch WebSocket of today's daily ended with %v, want 1008 %q", err, why)
				}
				break
			}
			if typ == websocket.MessageBinary && strings.Contains(string(data), "Turn:") {
				t.Fatalf("the watch WebSocket draws today's daily: %q", data)
			}
		}
	}

	bob := dial(t, addr, newKey(t), 80, 24)
	title(t, bob)
	bob.Send("w")
	s, err := bob.WaitFor(ctx, func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), " "), "hidden until 00:00 UTC")
	})
	if err != nil {
		t.Fatalf("the title's watch list does not say that today's daily is hidden: %v", err)
	}
	if strings.Contains(s, name) {
		t.Errorf("the title's watch list offers today's daily:\n%s", s)
	}
	bob.Send("\x1b")

	again := dial(t, addr, annKey, 80, 24) // the same key: its own game
	waitText(t, again, "This key is already playing")
	again.Send("w")
	waitText(t, again, "Watching "+name)
	again.Send("q")
	waitText(t, again, "This key is already playing")

	after := time.Date(2026, 12, 3, 0, 0, 30, 0, time.UTC)
	now.Store(&after)
	if out, _, _ := run(t, login(t, addr, "x", newKey(t)), "who"); strings.Contains(out, "hidden") {
		t.Errorf("who still hides yesterday's daily after 00:00 UTC:\n%s", out)
	}
	if links, _ := webGames(t, base); links[name] == "" {
		t.Error("the front page does not link yesterday's daily to be watched after 00:00 UTC")
	}
	if code, _ := get(t, http.DefaultClient, page); code != http.StatusOK {
		t.Errorf("/watch/%d after 00:00 UTC: %d, want 200", id, code)
	}
}

// TestAWatcherIsLetGoWhenTheGameBecomesTodaysDaily: a browser watching a
// player on the title is closed with the reason (1008, tui.HiddenWhy)
// once that player starts today's daily, before any frame of it.
func TestAWatcherIsLetGoWhenTheGameBecomesTodaysDaily(t *testing.T) {
	var now atomic.Pointer[time.Time]
	noon := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	now.Store(&noon)
	srv, addr := serveClocked(t, Config{HTTP: "127.0.0.1:0"}, &now)
	base := "http://" + srv.HTTPAddr().String()
	ann := dial(t, addr, newKey(t), 80, 24)
	name := fmt.Sprintf("soon%d", names.Add(1))
	ann.Send("\x15" + name + "\r")
	waitText(t, ann, "New game")
	var id uint64
	for _, g := range srv.place.live.Games() {
		if g.Name == name {
			id = g.ID
		}
	}
	if id == 0 {
		t.Fatalf("%s is not in the lobby", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/watch/"+strconv.FormatUint(id, 10)+"/ws?cols=80&rows=24", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ann.Send("d")
	waitText(t, ann, "Turn: 0")
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || ce.Reason != tui.HiddenWhy {
				t.Errorf("the watch ended with %v, want 1008 %q", err, tui.HiddenWhy)
			}
			return
		}
		if typ == websocket.MessageBinary && strings.Contains(string(data), "Turn:") {
			t.Fatalf("the watcher was sent a frame of today's daily: %q", data)
		}
	}
}
