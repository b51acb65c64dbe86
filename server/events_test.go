package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
)

// playBot plays one game on srv as a key named name, through the server's
// own session wiring (newPlay: the store, its lease, the events feed),
// with the diver bot choosing every command, until the game ends or
// turns run out. It returns the game.
func playBot(t *testing.T, srv *Server, name string, turns int) *game.Game {
	t.Helper()
	fp := "SHA256:bot-" + name
	lease := &sessionLease{nl: srv.place.leases, st: srv.store, fp: fp, n: lobby.NotifierFunc(func(lobby.Event) {})}
	if err := lease.acquire(); err != nil {
		t.Fatal(err)
	}
	defer lease.release()
	lob := &sessionLobby{srv: srv, fp: fp, lease: lease, log: log.New(io.Discard)}
	lob.setShownName(name, false)
	play := srv.newPlay(fp, lob, log.New(io.Discard))
	if err := play.Start(); err != nil {
		t.Fatal(err)
	}
	diver, _ := bot.PolicyByName("diver")
	g := play.Game()
	v := bot.NewView(g)
	for i := 0; i < turns && !g.Over(); i++ {
		_, err := play.Do(diver.Decide(v))
		if _, impossible := errors.AsType[*game.Impossible](err); impossible {
			_, err = play.Do(game.Wait())
		}
		if err != nil && !g.Over() {
			t.Fatalf("%s's turn %d: %v", name, g.Turn(), err)
		}
		v.Refresh()
	}
	return g
}

// lines parses the JSON lines of out, failing on any that is not an event.
func lines(t *testing.T, out []byte) []events.Event {
	t.Helper()
	var es []events.Event
	for _, l := range bytes.SplitAfter(out, []byte("\n")) {
		if len(l) == 0 || l[len(l)-1] != '\n' {
			continue // the line still arriving
		}
		e, err := events.Parse(l)
		if err != nil {
			t.Fatalf("the feed wrote %q: %v", l, err)
		}
		es = append(es, e)
	}
	return es
}

func ids(es []events.Event) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s %s %s d%d\n", e.ID, e.Player, e.Kind, e.Depth)
	}
	return b.String()
}

// TestASSHClientFollowsTheEventsOfGamesAsBotsPlayThem: `ssh host events`
// (no terminal) prints the recent events, then each milestone of the
// games played meanwhile as it happens, in order, one JSON line each;
// it ends when the client leaves.
func TestASSHClientFollowsTheEventsOfGamesAsBotsPlayThem(t *testing.T) {
	srv, addr := serve(t, Config{NewSeed: func() uint64 { return 7 }})
	playBot(t, srv, "early", 0) // begun before the follower came: a recent event
	follower, err := sshtest.Dial(addr, newKey(t), sshtest.Options{NoPTY: true, Command: "events"})
	if err != nil {
		t.Fatal(err)
	}
	defer follower.Close()
	await.Until(t, waitLong, "the recent event", func() bool { return len(lines(t, follower.Output())) == 1 })
	_, mine := srv.feed.hub.Follow(10000) // the test's own follower, to compare with
	defer mine.Stop()
	g1 := playBot(t, srv, "ann", 3000)
	g2 := playBot(t, srv, "bob", 3000)

	var want []events.Event
	for len(mine.C()) > 0 {
		want = append(want, <-mine.C())
	}
	await.Until(t, waitLong, "the follower has every event", func() bool { return len(lines(t, follower.Output())) >= 1+len(want) })
	got := lines(t, follower.Output())
	if got[0].Player != "early" || got[0].Kind != events.KindStart {
		t.Errorf("the first line %+v, want the start of early's game, from before the follower came", got[0])
	}
	if ids(got[1:]) != ids(want) {
		t.Fatalf("the follower read:\n%s\nthe hub published:\n%s", ids(got[1:]), ids(want))
	}
	for _, p := range []struct {
		name string
		g    *game.Game
	}{{"ann", g1}, {"bob", g2}} {
		var kinds []events.Kind
		depth := 1
		for _, e := range got {
			if e.Player != p.name {
				continue
			}
			kinds = append(kinds, e.Kind)
			if e.Kind == events.KindDeath && (e.Cause == "" || strings.Contains(" "+e.Cause+" ", " you ") || strings.Contains(e.Cause, "your")) {
				t.Errorf("%s's death says %q: a public feed says the cause as the score table does, in the third person", p.name, e.Cause)
			}
			if e.Node != srv.cfg.Node || e.V != events.Version || e.Time.IsZero() {
				t.Errorf("%s's event %+v lacks its node, version or time", p.name, e)
			}
			if e.Kind == events.KindDepth {
				if e.Depth != depth+1 {
					t.Errorf("%s reached depth %d after %d", p.name, e.Depth, depth)
				}
				depth = e.Depth
			}
		}
		if len(kinds) == 0 || kinds[0] != events.KindStart || depth != p.g.Depth() || depth < 2 {
			t.Errorf("%s's events %v reach depth %d; the game reached %d (want a start first, then each depth)", p.name, kinds, depth, p.g.Depth())
		}
		if p.g.Over() {
			last := kinds[len(kinds)-1]
			if (p.g.Won() && last != events.KindVictory) || (!p.g.Won() && last != events.KindDeath) {
				t.Errorf("%s's game ended (won %v) but the last event is %s", p.name, p.g.Won(), last)
			}
		}
	}
	if !g1.Over() && !g2.Over() {
		t.Error("neither bot's game ended: nothing checks a death's event")
	}
	t.Logf("the follower read:\n%s", ids(got))
	follower.Close()
	await.Until(t, waitLong, "the follower's session to end on the server", func() bool { return srv.feed.hub.Followers() == 1 })
}

// TestAFollowerThatNeverReadsCostsTheGamesNothing: a follower that reads
// nothing is cut once its buffer is full, while the games go on to their
// end; the cut is counted.
func TestAFollowerThatNeverReadsCostsTheGamesNothing(t *testing.T) {
	srv, _ := serve(t, Config{NewSeed: func() uint64 { return 7 }})
	_, stuck := srv.feed.hub.Follow(1) // never read
	defer stuck.Stop()
	before := srv.feed.hub.Published()
	for _, name := range []string{"ann", "bob", "cyd"} {
		playBot(t, srv, name, 3000) // returns: no turn waited for the follower
	}
	if n := srv.feed.hub.Published() - before; n < 3 {
		t.Fatalf("%d events published, want at least the three starts", n)
	}
	if !stuck.Cut() || srv.feed.hub.Cut() != 1 {
		t.Errorf("the stuck follower cut %v (hub counts %d); want it cut once it fell behind", stuck.Cut(), srv.feed.hub.Cut())
	}
}

// stuckFollower runs `events` as key over a client that never reads its
// output (its SSH window fills) and waits until the server follows the
// feed for it; the channel closes once its session or connection ends.
func stuckFollower(t *testing.T, srv *Server, addr string, key gossh.Signer) <-chan struct{} {
	t.Helper()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "follower",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if err := sess.Start("events"); err != nil {
		t.Fatal(err)
	}
	await.Until(t, waitLong, "the follower to follow", func() bool { return srv.feed.hub.Followers() == 1 })
	closed := make(chan struct{})
	go func() { sess.Wait(); close(closed) }()
	go func() { conn.Wait(); sess.Close() }()
	return closed
}

// TestAnSSHFollowerThatStopsReadingIsCutAndItsConnectionClosed: a client
// that runs `events` and never reads its output fills its SSH window;
// the hub cuts it as it falls behind, and the server then ends the
// session (told why, when the window still takes the line) or closes the
// connection, instead of keeping the session (and a goroutine blocked in
// its write) until the client goes (left open after issue 24).
func TestAnSSHFollowerThatStopsReadingIsCutAndItsConnectionClosed(t *testing.T) {
	srv, addr := serve(t, Config{})
	closed := stuckFollower(t, srv, addr, newKey(t))
	// Lines of 16 KB: the follower's buffer of 256 holds 4 MB, more
	// than the client's 2 MB window, so the write blocks whenever the
	// cut comes.
	at, long := time.Now(), strings.Repeat("x", 16<<10)
	for i := 0; srv.feed.hub.Cut() == 0; i++ {
		if i == 100_000 {
			t.Fatal("100,000 events published and the follower that reads nothing was never cut")
		}
		srv.feed.hub.Publish(events.Event{V: events.Version, ID: fmt.Sprintf("flood-%d", i), Time: at, Node: "n",
			Kind: events.KindDeath, Player: "flooder", Depth: 1, Cause: long})
	}
	select {
	case <-closed:
	case <-time.After(waitLong):
		t.Fatal("the follower was cut but its session is still open")
	}
}

// TestCtrlCOrQEndsTheEventsFeedOnATerminal: `ssh -t host events` sends
// Ctrl+C to the server, not to ssh; it ends the feed with status 0, and
// so does q (a community tester could leave only with ~.).
func TestCtrlCOrQEndsTheEventsFeedOnATerminal(t *testing.T) {
	_, addr := serve(t, Config{})
	for _, key := range []string{"\x03", "q"} {
		c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{Command: "events"})
		if err != nil {
			t.Fatal(err)
		}
		c.Send(key)
		select {
		case <-c.Done():
			if c.ExitStatus() != 0 {
				t.Errorf("%q ended the feed with status %d, want 0", key, c.ExitStatus())
			}
		case <-time.After(waitLong):
			t.Errorf("%q on the terminal did not end `events`", key)
		}
		c.Close()
	}
}

// TestAFollowerIsToldTheServerIsShuttingDown: at shutdown the feed ends
// with a line on stderr that says why, as players are told (a community
// tester's follower just stopped, with nothing said).
func TestAFollowerIsToldTheServerIsShuttingDown(t *testing.T) {
	srv, addr := serve(t, Config{})
	c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{NoPTY: true, Command: "events"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	await.Until(t, waitLong, "the follower to follow", func() bool { return srv.feed.hub.Followers() == 1 })
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	srv.Shutdown(ctx)
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatal("the follower's session did not end at shutdown")
	}
	if out := string(c.Output()); !strings.Contains(out, "shutting down") {
		t.Errorf("the follower read %q at shutdown, want why the feed ended", out)
	}
}

// TestABannedFollowerThatReadsNothingIsEnded: a follower whose client
// reads nothing, its window full but not yet cut, is banned; its session
// ends within the ban check and the goodbye's grace (a breaker's stayed
// connected: the ban's line blocked on the full window).
func TestABannedFollowerThatReadsNothingIsEnded(t *testing.T) {
	srv, addr := serve(t, Config{})
	key := newKey(t)
	closed := stuckFollower(t, srv, addr, key)
	// 200 lines of 16 KB: 2 MB fill the client's window, and the rest
	// wait in the follower's buffer, under its 256.
	at, long := time.Now(), strings.Repeat("x", 16<<10)
	for i := range 200 {
		srv.feed.hub.Publish(events.Event{V: events.Version, ID: fmt.Sprintf("fill-%d", i), Time: at, Node: "n",
			Kind: events.KindDeath, Player: "filler", Depth: 1, Cause: long})
	}
	if srv.feed.hub.Cut() != 0 {
		t.Fatal("the follower was cut: the test needs one that is stuck, not cut")
	}
	if _, err := srv.store.Moderate(store.Act{When: at, Admin: "SHA256:admin", Action: store.ActBan,
		Fingerprint: keys.Fingerprint(key.PublicKey())}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(waitLong):
		t.Fatal("a banned follower that reads nothing is still connected")
	}
}
