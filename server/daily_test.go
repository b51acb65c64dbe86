package server

import (
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
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
// is resumed as any saved game, kept beside a game of the key's own (New
// game leaves it be); a cheat is refused in it.
func TestTwoKeysPlayTheSameDailyOnceEach(t *testing.T) {
	srv, addr := startServer(t)
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
	if !strings.Contains(s, "Continue today's daily") {
		t.Fatalf("ann's daily is not resumable:\n%s", s)
	}
	c.Send("d") // its daily is kept: nothing to throw away, nor to start
	waitText(t, c, "choose Continue today's daily")
	c.Send("c")
	s = waitText(t, c, "Turn: 0")
	if mapRows(s) != maps[0] {
		t.Errorf("ann's resumed daily is not the daily:\n%s", s)
	}
	c.Send("\x03")
	<-c.Done()

	c = dial(t, addr, ann, 80, 24)
	title(t, c)
	c.Send("n") // a game of ann's own, beside the daily: nothing to lose
	waitText(t, c, "Turn: 0")
	c.Send("\x03")
	<-c.Done()
	c = dial(t, addr, ann, 80, 24)
	s = title(t, c)
	if !strings.Contains(s, "Continue your game") || !strings.Contains(s, "Continue today's daily") {
		t.Fatalf("ann's two games are not both offered:\n%s", s)
	}
	c.Send("\x03")
	<-c.Done()
	// Were the daily gone (its save lost), its attempt is still taken.
	if err := srv.Store().DeleteSave(store.SlotKey(keys.Fingerprint(ann.PublicKey()), store.DailySlot)); err != nil {
		t.Fatal(err)
	}
	c = dial(t, addr, ann, 80, 24)
	title(t, c)
	c.Send("d")
	s = waitText(t, c, "Today's daily is done; the next one starts in ")
	if !strings.Contains(strings.Join(strings.Fields(s), " "), "(00:00 UTC)") {
		t.Errorf("the refusal does not say when the next daily starts:\n%s", s)
	}
}

// TestTheDailyBoardIsApartFromTheMainOne: `scores daily` lists today's
// daily scores and `scores` does not; `scores daily DATE` lists that day's;
// a malformed date is one line and status 1.
func TestTheDailyBoardIsApartFromTheMainOne(t *testing.T) {
	db := storetest.TempBolt(t)
	addr := commandsOn(t, db, nil)
	now := time.Now().UTC()
	today := now.Format(store.DailyLayout)
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

// TestAFinishedDailyIsOnItsBoardAndReplaysExactly: a daily played to its
// end through a session is recorded on its day's board, not the main one,
// kept as a finished game marked daily, and its replay reaches the
// recorded end.
func TestAFinishedDailyIsOnItsBoardAndReplaysExactly(t *testing.T) {
	db := storetest.TempBolt(t)
	s := &Server{log: log.New(io.Discard), store: db, data: content.Default()}
	s.replays.games = finished.New(db, s.data, s.log, s.clock)
	const day = "2024-05-01" // a day over: its replay is open
	finishDaily(t, db, "ann", day)
	board, err := db.DailyScores(day, 10)
	if err != nil || len(board) != 1 || board[0].Name != "ann" || board[0].GameID == 0 {
		t.Fatalf("the daily board: %+v (%v)", board, err)
	}
	if top, _ := db.TopScores(10); len(top) != 0 {
		t.Errorf("the daily is on the main board: %+v", top)
	}
	rg, err := s.ReplayGame("1")
	if err != nil || rg.Replay == nil {
		t.Fatalf("the daily's replay: %+v, %v", rg, err)
	}
	if err := rg.Replay.End(); err != nil || rg.Replay.Game().Daily() != day {
		t.Errorf("the daily's replay ends with %v, daily %q", err, rg.Replay.Game().Daily())
	}
	if out, _, _ := run(t, login(t, commandsOn(t, db, nil), "x", newKey(t)), "replays"); !strings.Contains(out, "daily "+day) {
		t.Errorf("replays does not mark the daily:\n%s", out)
	}
}

// TestWhoMarksTheDaily: `ssh host who` says which live game is today's
// daily, in a column of its own that stays aligned, and leaves the
// others unmarked (found by a tester of the daily challenge).
func TestWhoMarksTheDaily(t *testing.T) {
	_, addr := startServer(t)
	ann := dial(t, addr, newKey(t), 80, 24)
	title(t, ann)
	ann.Send("d")
	waitText(t, ann, "Daily ")
	bob := dial(t, addr, newKey(t), 80, 24)
	title(t, bob)
	bob.Send("n")
	waitText(t, bob, "Turn: 0")
	out, _, status := run(t, login(t, addr, "x", newKey(t)), "who")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if status != 0 || len(lines) != 4 || lines[3] != tui.HiddenList { // today's daily is hidden, and who says why
		t.Fatalf("who: status %d, %d lines:\n%s", status, len(lines), out)
	}
	lines = lines[:3]
	if status != 0 || len(lines) != 3 {
		t.Fatalf("who: status %d, %d lines:\n%s", status, len(lines), out)
	}
	today := time.Now().UTC().Format(store.DailyLayout)
	col := strings.Index(lines[0], "DAILY")
	if col < 0 {
		t.Fatalf("who has no DAILY column:\n%s", out)
	}
	marked := 0
	for _, l := range lines[1:] {
		switch {
		case strings.Index(l, today) == col:
			marked++
		case len(l) > col && l[col] == '-' && !strings.Contains(l, today):
		default:
			t.Errorf("a row's DAILY column (at %d) is neither %s nor -:\n%s", col, today, out)
		}
	}
	if marked != 1 {
		t.Errorf("%d games marked as today's daily, want 1:\n%s", marked, out)
	}
}
