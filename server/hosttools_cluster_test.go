package server

// Tests of the admins' host tools across nodes: real nodes on one real
// PostgreSQL database (internal/pgtest), each with its node channel
// (serveNodeWith), and real SSH clients.

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
)

// adminNodes runs one node per name on a new database, each with its
// channel on loopback unless its name is in noChannel, all with admin as
// their one admin (the same admins file, as a shared config mount gives
// every node). It returns each node's server and SSH address, and its log.
func adminNodes(t *testing.T, admin gossh.Signer, names []string, noChannel ...string) ([]*Server, []string, []*lockedBuffer) {
	t.Helper()
	url := pgtest.NewDatabase(t)
	file := filepath.Join(t.TempDir(), "admins")
	writeKeys(t, file, admin)
	var (
		srvs  []*Server
		addrs []string
		logs  []*lockedBuffer
	)
	for _, name := range names {
		cfg := Config{Node: name, AdminKeys: file, ClusterListen: "127.0.0.1:0"}
		for _, n := range noChannel {
			if n == name {
				cfg.ClusterListen = ""
			}
		}
		l := &lockedBuffer{}
		srv, addr := serveNodeWith(t, url, cfg, l)
		srvs, addrs, logs = append(srvs, srv), append(addrs, addr), append(logs, l)
	}
	return srvs, addrs, logs
}

// listedOn waits until srv's listing of the other nodes' games has one
// under name (it is one announcement old).
func listedOn(t *testing.T, srv *Server, name string) {
	t.Helper()
	if !await.Within(waitLong, func() bool {
		_, ok := srv.place.nodes.named(name)
		return ok
	}) {
		t.Fatalf("node %s never listed %s's game on another node: %+v", srv.cfg.Node, name, srv.place.nodes.remote())
	}
}

// nodesLive waits until the store lists n live nodes (each announced).
func nodesLive(t *testing.T, srv *Server, n int) {
	t.Helper()
	var (
		nodes []string
		err   error
	)
	if !await.Within(waitLong, func() bool {
		nodes, err = srv.place.nodes.st.Nodes(context.Background())
		return err == nil && len(nodes) == n
	}) {
		t.Fatalf("live nodes %q (%v), want %d", nodes, err, n)
	}
}

func TestAnAdminsBroadcastOnOneNodeShowsOnEveryNode(t *testing.T) {
	admin := newKey(t)
	_, addrs, _ := adminNodes(t, admin, []string{"node-a", "node-b"})
	player := dial(t, addrs[1], newKey(t), 100, 30) // on B
	newGame(t, player)
	onTitle := dial(t, addrs[0], newKey(t), 80, 24) // on A
	title(t, onTitle)

	out, status := commandAs(t, addrs[0], admin, "broadcast Server restarts at noon")
	if status != 0 || !strings.Contains(out, "sent to 2 sessions on 2 nodes") || strings.Contains(out, "did not get it") {
		t.Fatalf("broadcast on node A: status %d, %q; want 2 sessions on 2 nodes", status, out)
	}
	const banner = "Message from the host: Server restarts at noon"
	waitText(t, player, banner)
	waitText(t, onTitle, banner)

	// Everyone else: the same "unknown command" as on one server.
	for _, cmd := range []string{"broadcast hello", "kick someone"} {
		out, status := command(t, addrs[0], cmd)
		if status != 1 || !strings.Contains(out, `grotto: unknown command "`+cmd+`"; try`) {
			t.Errorf("a player's %q on a node: status %d, %q", cmd, status, out)
		}
	}
}

func TestAnAdminsKickOnOneNodeEndsAPlayerOnAnotherWhoResumesAtTheSameTurn(t *testing.T) {
	admin, key := newKey(t), newKey(t)
	srvs, addrs, _ := adminNodes(t, admin, []string{"node-a", "node-b"})
	c := dial(t, addrs[1], key, 100, 30) // plays on B
	newGame(t, c)
	wantTurn := turn(rest(t, c, 3))
	name := listedName(t, srvs[1])
	listedOn(t, srvs[0], name)

	out, status := commandAs(t, addrs[0], admin, "kick "+strings.ToUpper(name))
	if status != 0 || !strings.Contains(out, "kicked "+strings.ToUpper(name)+" on node node-b: the session has ended.") {
		t.Errorf("the admin's kick on node A: status %d, %q; want it to name node B", status, out)
	}
	if bye := ended(t, c); !strings.Contains(bye, "An admin ended your session; your game is saved.") {
		t.Errorf("the kicked player read:\n%s", bye)
	}
	if got := savedTurn(srvs[0], key); got != atoi(wantTurn) {
		t.Errorf("saved at turn %d, want %s", got, wantTurn)
	}
	// The player comes back on A, the admin's node: the game resumes at
	// once (B let the key go before the kick answered).
	again := dial(t, addrs[0], key, 100, 30)
	waitText(t, again, "Continue")
	again.Send("\r")
	waitText(t, again, "Turn: "+wantTurn)

	// A kick on B, of a player on A, the other way round; and a name
	// nobody plays under.
	listedOn(t, srvs[1], name)
	if out, status := commandAs(t, addrs[1], admin, "kick "+name); status != 0 || !strings.Contains(out, "on node node-a") {
		t.Errorf("the admin's kick on node B: status %d, %q; want it to name node A", status, out)
	}
	ended(t, again)
	if out, status := commandAs(t, addrs[0], admin, "kick nobody"); status != 1 || !strings.Contains(out, "no live game named nobody on any node") {
		t.Errorf("kicking nobody: status %d, %q", status, out)
	}
}

func TestTheHostToolsNameEachNodeThatDidNotAnswer(t *testing.T) {
	admin := newKey(t)
	srvs, addrs, _ := adminNodes(t, admin, []string{"node-a", "node-b", "node-c"}, "node-c")
	onTitle := dial(t, addrs[0], newKey(t), 80, 24) // on A
	title(t, onTitle)
	player := dial(t, addrs[1], newKey(t), 100, 30) // on B, which will stop answering
	newGame(t, player)
	name := listedName(t, srvs[1])
	listedOn(t, srvs[0], name)
	nodesLive(t, srvs[0], 3)
	pauseNode(srvs[1]) // B's channel closes; its announcement lives on for a TTL

	out, status := commandAs(t, addrs[0], admin, "broadcast Server restarts at noon")
	if status != 0 || !strings.Contains(out, "sent to 1 session on 1 node") {
		t.Errorf("broadcast on node A: status %d, %q; want 1 session on 1 node", status, out)
	}
	for node, why := range map[string]string{"node-b": "it does not answer", "node-c": "it has no node channel (--cluster-listen)"} {
		if want := "grotto: node " + node + " did not get it: " + why; !strings.Contains(out, want) {
			t.Errorf("the admin read %q; want the line %q", out, want)
		}
	}
	waitText(t, onTitle, "Message from the host: Server restarts at noon")

	out, status = commandAs(t, addrs[0], admin, "kick "+name)
	if want := "grotto: " + name + " plays on node node-b, which did not kick them: it does not answer"; status != 1 || !strings.Contains(out, want) {
		t.Errorf("a kick of a player on a node that does not answer: status %d, %q; want 1 and %q", status, out, want)
	}
}
