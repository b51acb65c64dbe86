package server

// Tests of one live game per key across nodes: two servers, each its own
// node, on one real PostgreSQL database (internal/pgtest).

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// serveNode runs a real grotto server named node on the PostgreSQL
// database url, with leases of ttl (0 for the default) and its node channel
// on loopback, and shuts it down at cleanup; opts change its config.
func serveNode(t *testing.T, url, node string, ttl time.Duration, logs *lockedBuffer, opts ...func(*Config)) (*Server, string) {
	t.Helper()
	cfg := Config{Node: node, LeaseTTL: ttl, ClusterListen: "127.0.0.1:0"}
	for _, o := range opts {
		o(&cfg)
	}
	return serveNodeWith(t, url, cfg, logs)
}

// serveNodeWith is serveNode with cfg (its node, channel, admins…) on the
// PostgreSQL database at url (serveDB); the listen address, data
// directory, logger and limits are set here.
func serveNodeWith(t *testing.T, url string, cfg Config, logs *lockedBuffer) (*Server, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger, cfg.Store = log.New(logs), url
	return serveDB(t, cfg, db)
}

// ended waits for c's session to end and returns all it printed.
func ended(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatalf("the session is still open:\n%s", c.Screen())
	}
	return string(c.Output())
}

// noSessions waits until srv has no session left: every game saved and its
// lease released.
func noSessions(t *testing.T, srv *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := srv.place.live.Wait(ctx); err != nil {
		t.Fatalf("sessions still open: %d", srv.place.live.Len())
	}
}

func TestAKeyPlayingOnOneNodeIsTakenOverFromAnotherAtTheSameTurnAndMap(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA)
	srvB, addrB := serveNode(t, url, "node-b", 0, &logsB)
	key := newKey(t)

	a := dial(t, addrA, key, 100, 30)
	newGame(t, a)
	screen := rest(t, a, 3)
	wantTurn, wantAround := turn(screen), around(t, screen)

	// Node B offers the same choice as node A would: watch, or take over.
	b := dial(t, addrB, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("w")
	watched := waitText(t, b, "Turn: "+wantTurn)
	if got := around(t, watched); got != wantAround {
		t.Errorf("watching from node B shows another map; player:\n%s\nwatcher:\n%s", wantAround, got)
	}
	screen = rest(t, a, atoi(wantTurn)+1)
	wantTurn, wantAround = turn(screen), around(t, screen)
	waitText(t, b, "Turn: "+wantTurn) // the watcher follows the player on the other node
	b.Send("q")
	waitText(t, b, "already playing")

	b.Send("t")
	screen = waitText(t, b, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("taken over on node B at another place; before:\n%s\nafter:\n%s", wantAround, got)
	}
	if out := ended(t, a); !strings.Contains(out, "took over") {
		t.Errorf("the player on node A reads %q; want to hear the key took the game over", out)
	}
	noSessions(t, srvA)
	screen = rest(t, b, atoi(wantTurn)+2) // every turn a durable write under B's lease
	wantTurn, wantAround = turn(screen), around(t, screen)

	// And back to A, the same way.
	a = dial(t, addrA, key, 100, 30)
	waitText(t, a, "already playing")
	a.Send("t")
	screen = waitText(t, a, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("taken back on node A at another place; before:\n%s\nafter:\n%s", wantAround, got)
	}
	ended(t, b)
	noSessions(t, srvB)
	rest(t, a, atoi(wantTurn)+1)
	for name, logs := range map[string]*lockedBuffer{"A": &logsA, "B": &logsB} {
		if strings.Contains(logs.String(), "fenced") {
			t.Errorf("a write was fenced on node %s during take-overs:\n%s", name, logs.String())
		}
	}
}

// who runs `ssh addr who` and returns what it printed.
func who(t *testing.T, addr string) string {
	t.Helper()
	out, status := command(t, addr, "who")
	if status != 0 {
		t.Fatalf("who exited %d: %s", status, out)
	}
	return out
}

func TestWhoOnEitherNodeListsTheGamesOfBothWithTheirNode(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	_, addrA := serveNode(t, url, "node-a", 0, &logsA)
	_, addrB := serveNode(t, url, "node-b", 0, &logsB)
	// ann plays a normal game on node-a, bob today's daily on node-b.
	for _, p := range []struct{ addr, name, pick string }{{addrA, "ann", "n"}, {addrB, "bob", "d"}} {
		c := dial(t, p.addr, newKey(t), 100, 30)
		waitText(t, c, "name")
		c.Send(p.name + "\r")
		waitText(t, c, "New game")
		c.Send(p.pick)
		waitText(t, c, "Turn: 0")
	}
	today := time.Now().UTC().Format(store.DailyLayout)
	for _, addr := range []string{addrA, addrB} {
		var out string
		await.Within(waitLong, func() bool {
			out = who(t, addr)
			return strings.Contains(out, "ann") && strings.Contains(out, "bob")
		})
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) == 4 && lines[3] == tui.HiddenList { // bob's daily is today's: not to be watched
			lines = lines[:3]
		}
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "NAME ") || !strings.Contains(lines[0], "NODE    DAILY") {
			t.Fatalf("who on %s:\n%s\nwant NODE and DAILY columns and both games", addr, out)
		}
		for _, l := range lines[1:] {
			f := strings.Fields(l)
			// The name screen suggests the SSH user's name; ours follow it.
			want := map[string]string{"testerann": "node-a - playing", "testerbob": "node-b " + today + " " + tui.HiddenNote + " playing"}[f[0]]
			if got := strings.Join(f[len(f)-len(strings.Fields(want)):], " "); got != want {
				t.Errorf("who on %s lists %q; want %s's game on %s", addr, l, f[0], want)
			}
		}
	}
}

// TestWhoOnOneNodeSaysWhomASessionOnAnotherWatches: what a session does
// goes through node_games: ann plays on node-a, cat on node-b watches her,
// and `who` on node-a lists cat as watching ann, not on the title.
func TestWhoOnOneNodeSaysWhomASessionOnAnotherWatches(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	_, addrA := serveNode(t, url, "node-a", 0, &logsA)
	_, addrB := serveNode(t, url, "node-b", 0, &logsB)
	ann := named(t, addrA, newKey(t), "ann", 100, 30)
	ann.Send("n")
	waitText(t, ann, "Turn: 0")
	cat := named(t, addrB, newKey(t), "cat", 100, 24) // under 30 rows: no "Playing now" on the title
	var out string
	if !await.Within(waitLong, func() bool { // node-b lists ann once node-a announced her
		out = who(t, addrB)
		return strings.Contains(out, "ann")
	}) {
		t.Fatalf("node-b never lists ann:\n%s", out)
	}
	cat.Send("w")
	waitText(t, cat, "Playing now")
	cat.Send("\r")
	waitText(t, cat, "Watching ann")
	ok := await.Within(waitLong, func() bool {
		out = who(t, addrA)
		return strings.Contains(out, "watching ann")
	})
	if !ok {
		t.Fatalf("who on node-a does not list cat, on node-b, as watching ann:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "cat" && (!strings.Contains(l, "node-b") || !strings.HasSuffix(l, "watching ann")) {
			t.Errorf("who on node-a lists cat as %q", l)
		}
	}
}

// resumeOn dials addr with key, as a player would reconnect after their
// node stopped, and returns the session once it shows the key's game or
// the title offering to continue it.
func resumeOn(t *testing.T, addr string, key gossh.Signer) (*sshtest.Client, string) {
	t.Helper()
	c := dial(t, addr, key, 100, 30)
	ctx, cancel := context.WithTimeout(context.Background(), 3*waitLong)
	defer cancel()
	screen, err := c.WaitFor(ctx, func(s string) bool { return strings.Contains(s, "Turn:") || strings.Contains(s, "Continue") })
	if err != nil {
		t.Fatalf("the node never resumed the key's game; it printed %q\n%s", c.Output(), screen)
	}
	return c, screen
}

func TestANodeThatLostItsLeaseIsFencedAndItsPlayersAreTold(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", MinLeaseTTL, &logsA)
	_, addrB := serveNode(t, url, "node-b", MinLeaseTTL, &logsB)
	moving, idle := newKey(t), newKey(t)

	// Two players on A: one will press a key after the lease moved, the
	// other will not (the renew loop finds out).
	a1 := dial(t, addrA, moving, 100, 30)
	newGame(t, a1)
	screen := rest(t, a1, 2)
	wantTurn, wantAround := turn(screen), around(t, screen)
	a2 := dial(t, addrA, idle, 100, 30)
	newGame(t, a2)
	rest(t, a2, 1)

	// A stops renewing and answering (as a paused node would); B tells
	// each player so and resumes their game by itself once A's lease
	// lapses, at the next epoch.
	pauseNode(srvA)
	b1, screen := resumeOn(t, addrB, moving)
	if !strings.Contains(string(b1.Output()), "does not answer") {
		t.Errorf("node B never told the player it waits for node A:\n%s", b1.Output())
	}
	screen = waitText(t, b1, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("node B resumed elsewhere; before:\n%s\nafter:\n%s", wantAround, got)
	}
	b2, screen2 := resumeOn(t, addrB, idle)
	if !strings.Contains(screen2, "Turn:") { // A's lease had lapsed already: the title offers it
		b2.Send("c")
	}

	// A's next write is refused: its player is told and leaves.
	a1.Send(".") // rest a turn: a write
	out := ended(t, a1)
	if !strings.Contains(out, "taken over elsewhere") {
		t.Errorf("the player on node A reads %q; want to hear the game was taken over elsewhere", out)
	}
	if !strings.Contains(logsA.String(), "fenced") {
		t.Errorf("node A's log does not say the write was fenced:\n%s", logsA.String())
	}
	// A's move never landed: B's game goes on from the turn it resumed.
	if got := turn(b1.Screen()); got != wantTurn {
		t.Errorf("node B's game is at turn %s, want %s", got, wantTurn)
	}
	rest(t, b1, atoi(wantTurn)+2)

	// A renews again and hears that it lost the idle key: that session
	// ends too, without a key pressed.
	srvA.place.leases.pause(false)
	if out := ended(t, a2); !strings.Contains(out, "taken over elsewhere") {
		t.Errorf("the idle player on node A reads %q; want to hear the game was taken over elsewhere", out)
	}
	waitText(t, b2, "Turn: 1")
	noSessions(t, srvA)
}

func TestATakeOverWithinANodeKeepsTheLeaseAndTheGameWritesOn(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA)
	_, addrB := serveNode(t, url, "node-b", 0, &logsB)
	key := newKey(t)
	a := dial(t, addrA, key, 100, 30)
	newGame(t, a)
	screen := rest(t, a, 2)
	wantTurn := turn(screen)

	a2 := dial(t, addrA, key, 100, 30)
	waitText(t, a2, "already playing")
	a2.Send("t")
	waitText(t, a2, "Turn: "+wantTurn)
	if out := ended(t, a); !strings.Contains(out, "took over") || strings.Contains(out, "elsewhere") {
		t.Errorf("the old session reads %q; want the take-over within the node", out)
	}
	screen = rest(t, a2, atoi(wantTurn)+2) // every turn a durable write under the lease
	wantTurn = turn(screen)
	if strings.Contains(logsA.String(), "fenced") {
		t.Errorf("a write was fenced after a take-over within the node:\n%s", logsA.String())
	}
	// Node B still sees the key playing on A; once it leaves, B resumes it.
	b := dial(t, addrB, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("l")
	ended(t, b)
	a2.Close()
	noSessions(t, srvA)
	b = dial(t, addrB, key, 100, 30)
	waitText(t, b, "Continue")
	b.Send("\r")
	waitText(t, b, "Turn: "+wantTurn)
}

// pauseNode makes srv behave as a paused node: it stops renewing its
// leases and its node channel stops answering.
func pauseNode(srv *Server) {
	srv.place.leases.pause(true)
	srv.place.nodes.srv.Close()
}

// rest presses "." (wait: always one turn) until the screen shows turn n,
// each key answered before the next is sent, so that no key is in flight
// when it returns: the screen it returns is the game on disk. walk's
// movement keys can be refused ("blocked"), and a refusal still on screen
// can answer the next key's wait early, leaving that key in flight.
func rest(t *testing.T, c *sshtest.Client, n int) string {
	t.Helper()
	screen := c.Screen()
	for i := 0; turn(screen) != "" && atoi(turn(screen)) < n && i < 200; i++ {
		want := "Turn: " + strconv.Itoa(atoi(turn(screen))+1)
		c.Send(".")
		s, err := c.WaitForText(10*time.Second, want)
		if err != nil {
			t.Fatal(err)
		}
		screen = s
	}
	if atoi(turn(screen)) < n {
		t.Fatalf("could not rest %d turns:\n%s", n, screen)
	}
	return screen
}

// TestTwoProcessesOfOneNodeNameNeverPlayOneGameAtOnce: a node restarted
// (or cloned by mistake) under the same --node name while the old process
// still holds a key's lease is another holder: the key's game waits for
// the old claim to lapse, then moves on to the next epoch, so the old
// process, if it comes back, is fenced instead of writing as the new one
// (found by a tester of the cluster: both played one game, the last save
// won).
func TestTwoProcessesOfOneNodeNameNeverPlayOneGameAtOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsOld, logsNew lockedBuffer
	old, addrOld := serveNode(t, url, "node-a", MinLeaseTTL, &logsOld)
	_, addrNew := serveNode(t, url, "node-a", MinLeaseTTL, &logsNew)
	key := newKey(t)
	a := dial(t, addrOld, key, 100, 30)
	newGame(t, a)
	screen := rest(t, a, 2)
	wantTurn := turn(screen)

	pauseNode(old) // hung: its lease lapses
	b, _ := resumeOn(t, addrNew, key)
	if !strings.Contains(string(b.Output()), "restarted") {
		t.Errorf("the new process of node-a never said it waits for the old one's claim:\n%s", b.Output())
	}
	waitText(t, b, "Turn: "+wantTurn)
	rest(t, b, atoi(wantTurn)+2)

	// The old process wakes with a key in hand: it is fenced.
	old.place.leases.pause(false)
	a.Send(".")
	if out := ended(t, a); !strings.Contains(out, "taken over elsewhere") {
		t.Errorf("the old process's player reads %q; want to hear the game continues elsewhere", out)
	}
	if got := turn(b.Screen()); got != strconv.Itoa(atoi(wantTurn)+2) {
		t.Errorf("the new process's game is at turn %s after the old one woke", got)
	}
}

func TestATakeOverWaitsForTheHoldersLeaseToLapseNotForAFixedPoll(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name              string
		expires, deadline time.Time
		least, most       time.Duration
	}{
		{"a lease that lapses in 5 s is tried again then", now.Add(5 * time.Second), now.Add(time.Minute), 4 * time.Second, 5 * time.Second},
		{"never past the take-over's deadline", now.Add(time.Minute), now.Add(2 * time.Second), time.Second, 2 * time.Second},
		{"a lapsed lease (clocks differ) is tried again soon, not at once", now.Add(-time.Second), now.Add(time.Minute), minLapseWait, minLapseWait},
	} {
		if got := lapseWait(c.expires, c.deadline); got < c.least || got > c.most {
			t.Errorf("%s: waits %v, want %v to %v", c.name, got, c.least, c.most)
		}
	}
}

// A take-over moves a game between nodes and the game goes on, so someone
// watching it keeps watching, whether from a third node or from the node
// the game leaves: their watch follows the game to the node that took it
// over, instead of reading that the player left.
func TestAWatcherFollowsAGameTakenOverFromAnotherNode(t *testing.T) {
	for _, from := range []string{"a third node", "the node the game leaves"} {
		t.Run("watching from "+from, func(t *testing.T) {
			url := pgtest.NewDatabase(t)
			var logsA, logsB, logsC lockedBuffer
			_, addrA := serveNode(t, url, "node-a", 0, &logsA)
			_, addrB := serveNode(t, url, "node-b", 0, &logsB)
			watchAt := addrA
			if from == "a third node" {
				_, watchAt = serveNode(t, url, "node-c", 0, &logsC)
			}
			key := newKey(t)
			a := dial(t, addrA, key, 100, 30)
			newGame(t, a)
			before := turn(rest(t, a, 2))

			w := dial(t, watchAt, newKey(t), 100, 30)
			title(t, w)
			waitUntil(t, "the watcher's node to list the game on node A", func() bool { return strings.Contains(who(t, watchAt), "node-a") })
			w.Send("w")
			waitText(t, w, "Playing now")
			w.Send("\r")
			waitText(t, w, "Turn: "+before)

			b := dial(t, addrB, key, 100, 30)
			waitText(t, b, "already playing")
			b.Send("t")
			waitText(t, b, "Turn: "+before)
			ended(t, a)
			screen := rest(t, b, atoi(before)+2)
			got := waitText(t, w, "Turn: "+turn(screen))
			if strings.Contains(string(w.Output()), "has left") {
				t.Errorf("the watcher was told the player left although the game went on:\n%s", got)
			}
			if around(t, got) != around(t, screen) {
				t.Errorf("the watcher's view differs after the take-over:\nplayer:\n%s\nwatcher:\n%s", around(t, screen), around(t, got))
			}
		})
	}
}
