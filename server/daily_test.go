package server

import (
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store"
)

// mapRows returns the rows of a 24-row play screen that draw the map.
func mapRows(screen string) string {
	lines := strings.Split(screen, "\n")
	return strings.Join(lines[:min(len(lines), 24-1-5)], "\n")
}

// TestTwoKeysPlayTheSameDailyOnceEach: over SSH, two keys choosing Daily
// challenge on the same day see the same first level, which is not a
// game of their own; a key that has started today's daily is refused a
// second attempt and told when the next one starts, while its daily game
// is resumed as any saved game; a cheat is refused in it.
func TestTwoKeysPlayTheSameDailyOnceEach(t *testing.T) {
	_, addr := startServer(t)
	ann, bob := newKey(t), newKey(t)
	var maps []string
	for _, key := range []gossh.Signer{ann, bob} {
		c := dial(t, addr, key, 80, 24)
		s := title(t, c)
		if !strings.Contains(s, "Daily challenge") {
			t.Fatalf("no Daily challenge on the title:\n%s", s)
		}
		c.Send("d")
		maps = append(maps, mapRows(waitText(t, c, "Turn: 0")))
		c.Send("\x03") // saves and leaves
		<-c.Done()
	}
	if maps[0] != maps[1] {
		t.Errorf("two keys see different dailies:\n%s\n\n%s", maps[0], maps[1])
	}

	c := dial(t, addr, ann, 80, 24)
	s := title(t, c)
	if !strings.Contains(s, "Continue") {
		t.Fatalf("ann's daily is not resumable:\n%s", s)
	}
	c.Send("d")
	waitText(t, c, "Start today's daily? Your saved game will be lost. (y/n)")
	c.Send("y")
	s = waitText(t, c, "Today's daily is done; the next one starts in ")
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "(00:00 UTC)") {
		t.Errorf("the refusal does not say when the next daily starts:\n%s", s)
	}
	c.Send("c")
	s = waitText(t, c, "Turn: 0")
	if mapRows(s) != maps[0] {
		t.Errorf("ann's resumed daily is not the daily:\n%s", s)
	}
}

// TestTheDailyBoardIsApartFromTheMainOne: `scores daily` lists today's
// daily scores and `scores` does not; `scores daily DATE` lists that day's;
// a malformed date is one line and status 1.
func TestTheDailyBoardIsApartFromTheMainOne(t *testing.T) {
	db := tempDB(t)
	addr := commandsOn(t, db, nil)
	now := time.Now().UTC()
	today := now.Format(game.DailyLayout)
	for _, s := range []store.Score{
		{Name: "ann", Points: 30, Cause: "killed by a rat", Date: now, Daily: today},
		{Name: "bob", Points: 20, Cause: "killed by a bat", Date: now},
		{Name: "cat", Points: 10, Cause: "killed by an orc", Date: now, Daily: "2026-01-02"},
	} {
		if _, err := db.FinishGame("SHA256:"+s.Name, s); err != nil {
			t.Fatal(err)
		}
	}
	key := newKey(t)
	out, _, status := run(t, login(t, addr, "x", key), "scores daily")
	if status != 0 || !strings.Contains(out, "Daily challenge of "+today) || !strings.Contains(out, "ann") ||
		strings.Contains(out, "bob") || strings.Contains(out, "cat") {
		t.Errorf("scores daily: status %d:\n%s", status, out)
	}
	out, _, _ = run(t, login(t, addr, "x", key), "scores")
	if !strings.Contains(out, "bob") || strings.Contains(out, "ann") || strings.Contains(out, "cat") {
		t.Errorf("scores lists a daily score, or not the main one:\n%s", out)
	}
	out, _, _ = run(t, login(t, addr, "x", key), "scores daily 2026-01-02")
	if !strings.Contains(out, "cat") || strings.Contains(out, "ann") {
		t.Errorf("scores daily 2026-01-02:\n%s", out)
	}
	out, errs, status := run(t, login(t, addr, "x", key), "scores daily yesterday")
	if status != 1 || out != "" || !strings.Contains(errs, "not a date") {
		t.Errorf("scores daily yesterday: status %d, stdout %q, stderr %q", status, out, errs)
	}
}
