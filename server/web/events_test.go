package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/server/events"
)

// TestTheFrontPageShowsTheNewestEventsAndItsPollGetsTheSameRows: the
// newest events in words, newest first, names escaped; the JSON the
// page's script polls says the same; without a feed neither is there.
func TestTheFrontPageShowsTheNewestEventsAndItsPollGetsTheSameRows(t *testing.T) {
	hub := events.NewHub(0)
	at := time.Date(2026, 12, 5, 18, 4, 0, 0, time.UTC)
	hub.Publish(events.Event{V: events.Version, ID: "a-1", Time: at, Kind: events.KindStart, Player: "<b>mal</b>", Depth: 1})
	hub.Publish(events.Event{V: events.Version, ID: "a-2", Time: at, Kind: events.KindKill, Player: "ann", Depth: 4, Monster: "ogre"})
	hub.Publish(events.Event{V: events.Version, ID: "a-3", Time: at, Kind: events.KindDeath, Player: "ann", Depth: 5,
		Cause: "killed by a troll on depth 5", Score: 812})
	s := newSite(t, Config{Events: hub.Recent})

	_, _, body := get(t, s.http.URL+"/")
	want := []string{"ann died: killed by a troll on depth 5, with 812 points", "ann killed an ogre on depth 4", "&lt;b&gt;mal&lt;/b&gt; began a new game"}
	last := -1
	for _, w := range want {
		i := strings.Index(body, w)
		if i < 0 {
			t.Fatalf("the front page lacks %q:\n%s", w, body)
		}
		if i < last {
			t.Errorf("%q is listed before a newer event", w)
		}
		last = i
	}
	if !strings.Contains(body, `<script src="/assets/events.js"`) {
		t.Error("the front page does not load its events script")
	}

	resp, err := http.Get(s.http.URL + "/events/recent.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rows []eventRow
	if err := json.NewDecoder(resp.Body).Decode(&rows); err != nil || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("recent.json: %v, Cache-Control %q", err, resp.Header.Get("Cache-Control"))
	}
	if len(rows) != 3 || rows[0].ID != "a-3" || rows[0].Time != "18:04" || rows[2].Text != "<b>mal</b> began a new game" {
		t.Errorf("recent.json rows %+v, want the three, newest first (text, for textContent)", rows)
	}

	off := newSite(t, Config{})
	if _, _, body := get(t, off.http.URL+"/"); strings.Contains(body, "Just now") {
		t.Error("a front page without a feed lists events")
	}
	if status, _, _ := get(t, off.http.URL+"/events/recent.json"); status != http.StatusNotFound {
		t.Errorf("recent.json without a feed: %d, want 404", status)
	}
}

// A game played with cheats is not celebrated: its victory says it had
// cheats and is not on the table (a community tester read "mod left the
// grotto alive with 2257 points!" for an admin's teleported game).
func TestACheatedVictoryIsNotCelebrated(t *testing.T) {
	e := events.Event{V: events.Version, ID: "a-1", Kind: events.KindVictory, Player: "mod", Depth: 6, Won: true, Score: 2257, Cheated: true}
	if s := sentence(e); strings.Contains(s, "!") || !strings.Contains(s, "with cheats") {
		t.Errorf("a cheated victory reads %q", s)
	}
	line := string(e.Line())
	if !strings.Contains(line, `"cheated":true`) {
		t.Errorf("the event line %s does not say cheats were used", line)
	}
	e.Cheated = false
	if s := sentence(e); !strings.HasSuffix(s, "!") || strings.Contains(s, "cheats") {
		t.Errorf("an honest victory reads %q", s)
	}
}
