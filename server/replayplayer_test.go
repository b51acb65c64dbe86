package server

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
)

// replayTurn reads "turn T/N" off a replay's status; -1 when absent.
var replayTurnRE = regexp.MustCompile(`turn (\d+)/(\d+)`)

func replayTurn(screen string) (pos, n int) {
	m := replayTurnRE.FindStringSubmatch(screen)
	if m == nil {
		return -1, -1
	}
	pos, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return pos, n
}

// replayLevelRE reads the player's level off the status line.
var replayLevelRE = regexp.MustCompile(`Lv: (\d+)`)

// replayLevel reads "Lv: n" off a replay's status line; -1 when absent.
func replayLevel(screen string) int {
	m := replayLevelRE.FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// waitScreen waits for a screen that ok accepts.
func waitScreen(t *testing.T, c *sshtest.Client, what string, ok func(string) bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	s, err := c.WaitFor(ctx, ok)
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
	return s
}

// statusRow returns the row of screen that holds the game's status line
// ("HP: …"), -1 when none.
func statusRow(screen string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "HP") {
			return i
		}
	}
	return -1
}

// TestAReplayOverSSHPlaysPausesStepsJumpsAndLeaves: `ssh -t host replay
// 1` plays a finished game at the viewer's terminal size; space pauses it,
// . and → step one turn, + and - double and halve the speed (1× to 32×),
// > jumps to the next depth, G to the checked end; Ctrl+C leaves with
// status 0.
func TestAReplayOverSSHPlaysPausesStepsJumpsAndLeaves(t *testing.T) {
	srv, addr := startServer(t)
	end := finishGames(t, srv.store.(*bolt.Store), "ann")[0]
	if end.Depth() < 2 {
		t.Fatalf("the game ended on depth %d; the test needs one that went deeper", end.Depth())
	}
	c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Width: 100, Height: 30, Command: "replay 1"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := waitText(t, c, "Replay of ann · turn ")
	if !strings.Contains(s, "1×") {
		t.Errorf("the replay does not start at 1×:\n%s", s)
	}
	// The viewer's size: 30 rows, of which 5 for messages and 1 status.
	if row := statusRow(s); row != 30-1-5 {
		t.Errorf("the status line is on row %d of a 30-row terminal, want %d:\n%s", row, 30-1-5, s)
	}
	waitScreen(t, c, "the replay to move on", func(s string) bool { pos, _ := replayTurn(s); return pos > 0 })

	c.Send(" ")
	s = waitText(t, c, "· paused")
	pos, n := replayTurn(s)
	// The clock: another replay of the game, playing at 1× from after the
	// pause. Once it has played three turns, more than two turns' time at
	// 1× has passed, and a replay on this machine, however slow, has had
	// its ticks played: the paused one would have moved by now.
	clock := dial2(t, addr, "replay 1")
	from, _ := replayTurn(waitText(t, clock, "Replay of ann · turn "))
	waitScreen(t, clock, "another replay to play three turns", func(s string) bool { p, _ := replayTurn(s); return p >= from+3 })
	if p, _ := replayTurn(c.Screen()); p != pos {
		t.Errorf("paused at turn %d, the replay went on to %d", pos, p)
	}
	// A step is one command: a turn, or a level-up, which takes none
	// (the counter is the game's turn) but raises Lv.
	step := func(key string) {
		t.Helper()
		before := c.Screen()
		from, _ := replayTurn(before)
		lv := replayLevel(before)
		c.Send(key)
		waitScreen(t, c, "a step from turn "+strconv.Itoa(from), func(s string) bool {
			p, _ := replayTurn(s)
			return p == from+1 || p == from && replayLevel(s) > lv
		})
	}
	step(".")
	step("\x1b[C") // →
	pos, _ = replayTurn(c.Screen())

	for _, k := range []struct{ key, speed string }{{"+", "2×"}, {"+", "4×"}, {"+", "8×"}, {"-", "4×"}, {"+", "8×"},
		{"+", "16×"}, {"+", "32×"}, {"+", "32×"}} {
		c.Send(k.key)
		waitText(t, c, "· "+k.speed+" · paused")
	}

	c.Send(">")
	s = waitText(t, c, "Depth: 2")
	if p, _ := replayTurn(s); p <= pos || !strings.Contains(s, "· paused") {
		t.Errorf("> went to turn %d (from %d), paused: %v", p, pos, strings.Contains(s, "· paused"))
	}
	c.Resize(90, 40)
	s = waitScreen(t, c, "the replay at 90x40", func(s string) bool { return statusRow(s) == 40-1-5 })

	c.Send("G")
	s = waitText(t, c, "the end: ")
	flat := strings.Join(strings.Fields(s), " ") // the status may wrap
	// Another's death reads in the third person: "it hit them".
	if p, _ := replayTurn(s); p != n || !strings.Contains(flat, game.ThirdPerson(end.Cause())+", checked") {
		t.Errorf("G: turn %d of %d, want the end, %q checked:\n%s", p, n, game.ThirdPerson(end.Cause()), s)
	}
	c.Send("\x03")
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatal("Ctrl+C did not end the replay")
	}
	if st := c.ExitStatus(); st != 0 {
		t.Errorf("exit status %d, want 0", st)
	}
}

// TestAReplayThatCannotBePlayedShowsItsDump: a game recorded under other
// rules shows its dump at once, saying why; one whose end does not match
// its record is verified before any frame: one line saying it is damaged
// and set aside, as a damaged history; an unknown id is one line; without
// a terminal the viewer is told to use ssh -t.
func TestAReplayThatCannotBePlayedShowsItsDump(t *testing.T) {
	srv, addr := startServer(t)
	db := srv.store.(*bolt.Store)
	end := finishGames(t, db, "ann")[0]
	hist, _ := end.HistoryBlob()
	for i, rec := range []store.GameRecord{
		{Seed: end.Seed(), Rules: "0.000000000000", History: hist, Hash: end.StateHash(), Dump: "old: the dump of game 2"},
		{Seed: end.Seed(), Rules: game.Rules(srv.data), History: hist, Hash: "another hash", Dump: "bad: the dump of game 3"},
	} {
		if _, err := db.FinishGame("SHA256:x", store.Score{Name: "x", Points: end.Score(), Cause: end.Cause(),
			Date: time.Now().Add(time.Duration(i) * time.Second), Game: &rec}); err != nil {
			t.Fatal(err)
		}
	}
	c := dial2(t, addr, "replay 2")
	s := waitText(t, c, "old: the dump of game 2")
	if !strings.Contains(s, "other rules") {
		t.Errorf("the game of other rules does not say why it is not played:\n%s", s)
	}
	c = dial2(t, addr, "replay 3")
	s = waitText(t, c, "set aside")
	if !strings.Contains(s, "game 3 is damaged and cannot be shown") || strings.Contains(s, "Replay of x") {
		t.Errorf("the mismatched game is not refused before any frame:\n%s", s)
	}
	ended(t, c)

	c = dial2(t, addr, "replay 99")
	waitText(t, c, "no finished game")
	out, errs, status := run(t, login(t, addr, "x", newKey(t)), "replay 1")
	if status != 1 || out != "" || !strings.Contains(errs, "ssh -t") {
		t.Errorf("replay without a terminal: status %d, stdout %q, stderr %q", status, out, errs)
	}
}

func dial2(t *testing.T, addr, cmd string) *sshtest.Client {
	t.Helper()
	c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestPickingAScoreRowOnTheTitleOpensItsReplay: on the title, Replays (r)
// moves into the score table; Enter on a row plays that game back; q goes
// back to the pick, Esc from there to the menu.
func TestPickingAScoreRowOnTheTitleOpensItsReplay(t *testing.T) {
	srv, addr := startServer(t)
	finishGames(t, srv.store.(*bolt.Store), "ann", "bob")
	c := dial(t, addr, newKey(t), 100, 40)
	s := title(t, c)
	if !strings.Contains(s, "Replays") {
		t.Fatalf("no Replays on the title:\n%s", s)
	}
	top, err := srv.store.TopScores(2)
	if err != nil || len(top) != 2 {
		t.Fatal(top, err)
	}
	c.Send("r")
	waitText(t, c, "> "+" 1. "+top[0].Name)
	c.Send("j")
	waitText(t, c, "> "+" 2. "+top[1].Name)
	c.Send("\r")
	waitText(t, c, "Replay of "+top[1].Name+" · turn ")
	c.Send("q") // back to the pick, on the row played
	waitText(t, c, "Enter watch its replay")
	waitText(t, c, "> "+" 2. "+top[1].Name)
	c.Send("\x1b") // and Esc to the menu
	waitText(t, c, "New game")
}

// TestADamagedGameOnTheTitleIsRefusedOnceThenNoLongerOffered: picking a
// score row whose kept game turns out damaged says so in one line and
// sets it aside; the row then offers no replay (not "no finished game",
// which a player who just saw it on the table would not understand), and
// the table read again (title, web front page) links it to none.
func TestADamagedGameOnTheTitleIsRefusedOnceThenNoLongerOffered(t *testing.T) {
	srv, addr := startServer(t)
	db := srv.store.(*bolt.Store)
	g := finishGames(t, db, "ann")[0]
	hist, _ := g.HistoryBlob()
	hist[len(hist)/2] ^= 0x04
	if _, err := db.FinishGame("SHA256:zed", store.Score{Name: "zed", Points: g.Score() + 1000, Cause: g.Cause(), Date: time.Now(),
		Game: &store.GameRecord{Seed: g.Seed(), Rules: game.Rules(srv.data), Hash: g.StateHash(), History: hist}}); err != nil {
		t.Fatal(err)
	}
	c := dial(t, addr, newKey(t), 100, 40)
	title(t, c)
	c.Send("r")
	waitText(t, c, "> "+" 1. zed")
	c.Send("\r")
	s := waitText(t, c, "set aside")
	if !strings.Contains(s, "Game 2 is damaged and cannot be shown") || strings.Contains(s, "Replay of zed") {
		t.Errorf("the damaged game is not refused in one line:\n%s", s)
	}
	c.Send("\r")
	s = waitText(t, c, "That game has no replay")
	if strings.Contains(s, "No finished game") {
		t.Errorf("picking the set-aside game again:\n%s", s)
	}
	if top, err := srv.store.TopScores(2); err != nil || len(top) != 2 || top[0].GameID != 0 || top[1].GameID != 1 {
		t.Errorf("the table once game 2 is set aside: %+v (%v); want zed's score without a replay, ann's with game 1", top, err)
	}
	c.Send("j")
	waitText(t, c, "> "+" 2. ann")
	c.Send("\r")
	waitText(t, c, "Replay of ann · turn ")
}

// TestShutdownEndsAReplay: a replay holds no game: Shutdown ends it,
// telling the viewer why.
func TestShutdownEndsAReplay(t *testing.T) {
	srv, addr := startServer(t)
	finishGames(t, srv.store.(*bolt.Store), "ann")
	c := dial2(t, addr, "replay 1")
	waitText(t, c, "Replay of ann")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go srv.Shutdown(ctx)
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatal("the replay went on after Shutdown")
	}
	if out := string(c.Output()); !strings.Contains(out, "The server is shutting down; the replay has stopped.") {
		t.Errorf("the viewer is not told why the replay stopped:\n%q", out)
	}
}

// TestShutdownSaysGoodbyeToEveryReplayEvenOneStillReadingItsGame: a
// replay is counted from its start, not only once its program runs, so
// Shutdown waits for the goodbye of one still reading and verifying its
// game; before, Shutdown closed its connection and the viewer read
// nothing (about one replay in 6–8, found by a tester of the replays).
// Several shutdowns, each of 8 replays just begun.
func TestShutdownSaysGoodbyeToEveryReplayEvenOneStillReadingItsGame(t *testing.T) {
	for round := range 6 {
		srv, addr := startServer(t)
		finishGames(t, srv.store.(*bolt.Store), "ann")
		const n = 8
		var cs []*sshtest.Client
		for range n {
			cs = append(cs, dial2(t, addr, "replay 1"))
		}
		// Every session has passed the session cap: it is in the replay
		// player, reading its game or already playing it.
		waitUntil(t, "every replay to pass the session cap", func() bool { return srv.front.guard.Sessions() >= n })
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		srv.Shutdown(ctx)
		cancel()
		for i, c := range cs {
			select {
			case <-c.Done():
			case <-time.After(waitLong):
				t.Fatalf("round %d: replay %d went on after Shutdown", round, i)
			}
			if out := string(c.Output()); !strings.Contains(out, "The server is shutting down") {
				t.Errorf("round %d: replay %d was not told the server is shutting down; it read %q", round, i, out[max(0, len(out)-120):])
			}
		}
	}
}
