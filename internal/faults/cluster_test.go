package faults

// The harness of the node tests (nodes_test.go): real grotto processes,
// each its own node, on one real PostgreSQL database (internal/pgtest),
// behind a real HAProxy on loopback (internal/haproxytest) that sends them
// the PROXY protocol from 127.0.0.2, as docs/hosting.md sets them up; and
// players who come back through the balancer the way a person would,
// trying again while their key is still held by a node that stopped.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/haproxytest"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/store"
)

const (
	// leaseTTL is every node's --lease-ttl: the minimum, so that a
	// stopped node's keys are free again soon.
	leaseTTL = 3 * time.Second
	// balancerIP is where HAProxy connects to the nodes from, and the
	// nodes' --proxy-protocol-from: another loopback address than the
	// players', whose direct connections (start's probe) stay plain.
	balancerIP = "127.0.0.2"
	// comeBack bounds a player's coming back through the balancer: the
	// lease of a dead node lapsing, retries, a slow CI machine. Generous:
	// no test asserts how long it took, only that it happened.
	comeBack = 90 * time.Second
)

// node is one grotto process of a cluster.
type node struct {
	*proc
	name string
}

// pause stops the process (SIGSTOP) as a hung or descheduled machine
// would: its connections stay open, nothing runs. wake continues it.
//
// kill(2) only makes the signal pending: pause returns once every thread
// of the process is stopped (state T in /proc), so that nothing sent after
// it can be read before the stop, and fails t if that takes 5 s.
func (n node) pause(t *testing.T) {
	t.Helper()
	n.cmd.Process.Signal(syscall.SIGSTOP)
	pid := strconv.Itoa(n.cmd.Process.Pid)
	if !await.Within(5*time.Second, func() bool {
		tasks, _ := filepath.Glob(filepath.Join("/proc", pid, "task", "*", "stat"))
		for _, f := range tasks {
			b, err := os.ReadFile(f)
			// The state follows the command name's closing parenthesis.
			if i := bytes.LastIndexByte(b, ')'); err != nil || i < 0 || i+2 >= len(b) || b[i+2] != 'T' {
				return false
			}
		}
		return len(tasks) > 0
	}) {
		t.Fatalf("%s is not stopped 5 s after SIGSTOP", n.name)
	}
}
func (n node) wake() { n.cmd.Process.Signal(syscall.SIGCONT) }

// cluster is nodes on one PostgreSQL database behind one HAProxy.
type cluster struct {
	db    backend // the database every node uses (--store)
	nodes []node
	lb    *haproxytest.Proxy
}

// startCluster starts n nodes named node1… on the database url, sharing
// one host key file, each with its node channel on loopback, then HAProxy
// in front of them, balancing in turn (roundrobin: a new connection goes
// to the next node in order).
func startCluster(t *testing.T, url string, n int) *cluster {
	t.Helper()
	c := &cluster{db: backend{name: "postgres", url: url}}
	hostKey := filepath.Join(t.TempDir(), "host_key") // made by the first node, read by the others
	var addrs []string
	for i := range n {
		name := fmt.Sprintf("node%d", i+1)
		p := c.db.start(t, anyPort, t.TempDir(), "--node", name, "--lease-ttl", leaseTTL.String(),
			"--host-key", hostKey, "--proxy-protocol-from", balancerIP+"/32", "--cluster-listen", anyPort)
		select {
		case <-p.done:
			t.Fatalf("%s exited at start: %v\n%s", name, p.err, p.stderr)
		default:
		}
		c.nodes = append(c.nodes, node{proc: p, name: name})
		addrs = append(addrs, p.addr)
	}
	c.lb = haproxytest.Start(t, haproxytest.Config{Nodes: addrs, Balance: "roundrobin", Source: balancerIP})
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range c.nodes {
				t.Logf("%s's log:\n%s", n.name, n.stderr)
			}
		}
	})
	return c
}

// nodesOnPostgres is how a node test begins: skipped under -short, run in
// parallel with the others, n nodes on a fresh database of the shared
// PostgreSQL, and that database open to read what the nodes wrote.
func nodesOnPostgres(t *testing.T, n int) (*cluster, store.Store) {
	t.Helper()
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	c := startCluster(t, pgtest.NewDatabase(t), n)
	return c, c.db.open(t, "")
}

// nodeOf returns the index of the node serving cl, found in the nodes'
// logs by the client's own address (which the balancer passes on), or -1.
func (c *cluster) nodeOf(t *testing.T, cl *sshtest.Client) int {
	t.Helper()
	mark := "remote-addr=" + cl.LocalAddr().String() + " "
	on := -1
	await.Within(5*time.Second, func() bool { // the log reaches us through a pipe: a moment late
		for i, n := range c.nodes {
			if strings.Contains(n.stderr.String(), mark) {
				on = i
				return true
			}
		}
		return false
	})
	return on
}

// onNode brings pl through the balancer to node i, at the name screen or
// the title, and returns that screen: a connection the balancer gives
// another node is closed, and the player tries again (the balancer's turn
// moves on).
func (c *cluster) onNode(t *testing.T, pl *player, i int) string {
	t.Helper()
	for try := 0; ; try++ {
		screen := pl.arrive(t, c.lb.Addr)
		if got := c.nodeOf(t, pl.c); got == i {
			return screen
		} else if try > 20 {
			t.Fatalf("%s never reached %s through the balancer (last on node %d)", pl.name, c.nodes[i].name, got+1)
		}
		pl.c.Close()
	}
}

// What a node shows a key whose game another node holds: without the node
// channel, one line and the end of the session (server/leases.go,
// leaseHeldLine); with it, the choice to take the game over (or watch it),
// or, when that node does not answer, a wait that resumes the game by
// itself once its lease lapses (server/nodes.go). arrive handles each.
const (
	leaseHeld = "Your key is playing on node"
	choice    = "This key is already playing"
	stranded  = "Resuming your game"
)

// atTitle reports whether the screen is where a session starts: the name
// screen of a new player, the title of a known one.
func atTitle(s string) bool {
	return strings.Contains(s, "Choose the name") || strings.Contains(s, "New game")
}

// inGame reports whether the screen shows a game: the status line and the @.
func inGame(s string) bool { return turnOf(s) >= 0 && around(s) != "" }

// arrive connects pl to addr (the balancer) as a player coming back
// would, until a node lets them in, and returns the name screen, the title
// or the game. A node that refuses the key with one line (it plays on
// another node, whose lease has not lapsed) is tried again a second later;
// on the choice screen pl takes the game over; a screen that waits for a
// node that does not answer is read until it goes on by itself; a
// connection the balancer cannot pass to a node (dead or stopped) is tried
// again. It fails the test after comeBack.
func (pl *player) arrive(t *testing.T, addr string) string {
	t.Helper()
	screen, err := pl.arriveBy(addr, time.Now().Add(comeBack))
	if err != nil {
		t.Fatalf("%s could not come back through %s: %v", pl.name, addr, err)
	}
	return screen
}

// arriveBy is arrive without a test, for players coming back at once: it
// says why it failed, and records in pl.via what pl went through.
func (pl *player) arriveBy(addr string, deadline time.Time) (string, error) {
	var last string // what the last try ended with, for the failure
	var screen string
	pl.via = nil
	// Each try is one connection; the next follows at once (await.Poll),
	// or a second later when a node said the key plays elsewhere.
	if await.Within(time.Until(deadline), func() bool {
		// A node that is stopped accepts the connection (its kernel does)
		// but never answers the handshake: give up on it soon.
		c, err := sshtest.Dial(addr, pl.key, sshtest.Options{Width: 100, Height: 30, User: pl.name, DialTimeout: 3 * time.Second})
		if err != nil {
			last = err.Error()
			pl.via = append(pl.via, "no node")
			return false
		}
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		tookOver, waited := false, false
		screen, err = c.WaitFor(ctx, func(s string) bool {
			if strings.Contains(s, choice) && !tookOver {
				tookOver = true
				pl.via = append(pl.via, "took over")
				c.Send("t")
			}
			if strings.Contains(s, stranded) && !waited {
				waited = true
				pl.via = append(pl.via, "waited on "+strconv.Quote(stranded))
			}
			return atTitle(s) || inGame(s)
		})
		cancel()
		if err == nil {
			pl.c = c
			return true
		}
		out := string(c.Output())
		c.Close()
		last = fmt.Sprintf("%v; printed %q", err, out)
		if strings.Contains(out, leaseHeld) {
			pl.via = append(pl.via, "refused")
			// The scenario's own timing, not a wait for anything: the
			// player reads the line before trying again (the lease they
			// wait on lapses on the database's clock, which no event here
			// tells; the next try finds out).
			await.Gap(time.Second)
		}
		return false
	}) {
		return screen, nil
	}
	return "", fmt.Errorf("not let in by %v; the last try: %s", comeBack, last)
}

// resume brings pl back into their game through the balancer (see
// arrive), choosing Continue, and returns the game's screen and how long
// it took.
func (pl *player) resume(t *testing.T, addr string) (string, time.Duration) {
	t.Helper()
	began := time.Now()
	screen := pl.enter(t, pl.arrive(t, addr))
	return screen, time.Since(began)
}

// rest presses "." (wait: always one turn) n times, each answered before
// the next is sent, so that no key is in flight when it returns: the turn
// on screen is the game in the store.
func (pl *player) rest(t *testing.T, n int) string {
	t.Helper()
	screen := pl.c.Screen()
	for range n {
		want := fmt.Sprintf("Turn: %d", turnOf(screen)+1)
		pl.c.Send(".")
		s, err := pl.c.WaitForText(30*time.Second, want)
		if err != nil {
			t.Fatalf("%s: resting a turn: %v", pl.name, err)
		}
		screen = s
	}
	screen = settle(pl.c)
	pl.shown, pl.around = turnOf(screen), around(screen)
	return screen
}

// openStep returns the key that moves the player onto a floor tile next to
// them, from around's 5x5 block round the @ (see around), or "" when none
// is open: a move, unlike a rest, is a journal entry that tells which
// node made it.
func openStep(around string) string {
	rows := strings.Split(around, "\n")
	for _, d := range []struct {
		key    string
		dx, dy int
	}{{"h", -1, 0}, {"l", 1, 0}, {"k", 0, -1}, {"j", 0, 1}, {"y", -1, -1}, {"u", 1, -1}, {"b", -1, 1}, {"n", 1, 1}} {
		if row := []rune(rows[2+d.dy]); len(row) == 5 && row[2+d.dx] == '.' {
			return d.key
		}
	}
	return ""
}

var depthRE = regexp.MustCompile(`Depth: (\d+)`)

// depthOf returns the depth on the status line, or "" when none shows.
func depthOf(screen string) string {
	if m := depthRE.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

// stored is a player's game as the store holds it: the save with its
// journal replayed, as a node loads it.
type stored struct {
	blob    []byte
	journal [][]byte
	game    *game.Game
}

// storedGame reads pl's game from st and replays its journal.
func storedGame(t *testing.T, st store.Store, pl *player) stored {
	t.Helper()
	fp := keyFP(pl)
	blob, err := st.Save(fp)
	if err != nil {
		t.Fatalf("%s: the store has no save: %v", pl.name, err)
	}
	journal, err := st.Journal(fp)
	if err != nil {
		t.Fatalf("%s: the store's journal: %v", pl.name, err)
	}
	g, err := game.Decode(blob, content.Default())
	if err != nil {
		t.Fatalf("%s: the stored save: %v", pl.name, err)
	}
	cmds := make([]game.Command, len(journal))
	for i, e := range journal {
		if cmds[i], err = game.DecodeCommand(e); err != nil {
			t.Fatalf("%s: journal entry %d: %v", pl.name, i, err)
		}
	}
	if err := g.Replay(cmds); err != nil {
		t.Fatalf("%s: the stored journal does not replay: %v", pl.name, err)
	}
	return stored{blob: blob, journal: journal, game: g}
}

// sameAs reports whether s and o hold the same bytes: no write landed
// between the two reads.
func (s stored) sameAs(o stored) bool {
	if string(s.blob) != string(o.blob) || len(s.journal) != len(o.journal) {
		return false
	}
	for i := range s.journal {
		if string(s.journal[i]) != string(o.journal[i]) {
			return false
		}
	}
	return true
}
