package faults

// A rolling deploy (docs/hosting.md, "Upgrading"): three nodes of this
// build on one PostgreSQL behind HAProxy, upgraded one at a time to a
// newer build while players play, then one of them rolled back. The newer
// build is this tree with a harmless change of the kind a release makes:
// a migration that only adds what this build ignores (a table, a column
// with a default) and a new field in every save it writes.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/haproxytest"
	"github.com/grotto-game/grotto/internal/pgtest"
)

// newerMark is the value of the save field only the newer build writes
// (newerSave), found in a save's bytes when a newer node wrote it.
const newerMark = `"DeployProbe":"written by the newer build"`

// restarting is what a player on a node that stops reads as it ends their
// session (server.goodbye, tui.ExitShutdown).
const restarting = "The server is shutting down. Your game is saved; come back with the same key to carry on."

// buildNewer builds the newer grotto: this tree with, through go build's
// -overlay (the tree itself is not touched, and every package the change
// does not reach comes from the build cache), migration SchemaVersion+1
// adding a table and a column with a default, SchemaVersion raised to it,
// and a save field (newerMark) in every save the build writes; with
// newRules, RulesVersion raised as well (a rules change: the same seed
// and commands may give another game). It returns the binary's path and
// the new schema version.
func buildNewer(t *testing.T, newRules bool) (string, int) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	dir := t.TempDir()
	replace := map[string]string{}
	// edit overlays file (relative to root) with its text after one
	// replacement of old by new, which must be there once.
	edit := func(file string, old *regexp.Regexp, new func(m []string) string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		m := old.FindStringSubmatch(string(b))
		if m == nil || len(old.FindAllString(string(b), -1)) != 1 {
			t.Fatalf("the newer build's change no longer applies: %s holds %q not once; update buildNewer in deploy_test.go", file, old)
		}
		text := strings.Replace(string(b), m[0], new(m), 1)
		put := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(put, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, file)] = put
	}
	add := func(file, text string) {
		put := filepath.Join(dir, filepath.Base(file))
		if err := os.WriteFile(put, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, file)] = put
	}
	var schema int
	edit("store/postgres/postgres.go", regexp.MustCompile(`const SchemaVersion = (\d+)`), func(m []string) string {
		now, _ := strconv.Atoi(m[1])
		schema = now + 1
		return fmt.Sprintf("const SchemaVersion = %d", schema)
	})
	migration := fmt.Sprintf("store/postgres/migrations/%04d_deploy_probe", schema)
	add(migration+".up.sql", "-- The deploy test's newer build: only what older builds ignore.\n"+
		"CREATE TABLE deploy_probe (note text NOT NULL);\n"+
		"ALTER TABLE saves ADD COLUMN deploy_probe text NOT NULL DEFAULT '';\n")
	add(migration+".down.sql", "ALTER TABLE saves DROP COLUMN deploy_probe;\nDROP TABLE deploy_probe;\n")
	edit("game/savebody.go", regexp.MustCompile("\tHistoryPart bool +`json:\"HistoryPart,omitempty\"`\n"), func(m []string) string {
		return m[0] + "\tDeployProbe string `json:\"DeployProbe,omitempty\"`\n"
	})
	edit("game/save.go", regexp.MustCompile(`sb := saveBody\{State: g\.s\.toSave\(\), RNG: rng\}\n`), func(m []string) string {
		return m[0] + "\tif withHistory {\n\t\tsb.DeployProbe = \"written by the newer build\"\n\t}\n"
	})
	if newRules {
		edit("game/history.go", regexp.MustCompile(`const RulesVersion = (\d+)`), func(m []string) string {
			now, _ := strconv.Atoi(m[1])
			return fmt.Sprintf("const RulesVersion = %d", now+1)
		})
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, overlay, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "grotto-newer")
	build := exec.Command("go", "build", "-overlay", file, "-o", newer, "github.com/grotto-game/grotto/cmd/grotto")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the newer grotto: %v\n%s", err, out)
	}
	return newer, schema
}

// deployNode is one node of the deploy: the addresses it keeps across
// restarts (held, so that HAProxy's configuration stays as it is) and its
// data dir.
type deployNode struct {
	name, ssh, metrics, channel, data string
}

// haproxyStatus is HAProxy's line when a node leaves or rejoins the
// rotation: "Server grotto_nodes/node2 is DOWN, reason: …".
func haproxyStatus(node, state string) string {
	return "Server grotto_nodes/" + node + " is " + state
}

func TestARollingDeployUpgradesEveryNodeWhilePlayersPlayAndNoTurnTheySawIsLost(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	began := time.Now()
	newer, schema := buildNewer(t, false)
	t.Logf("built the newer grotto (schema %d) in %v", schema, time.Since(began).Round(100*time.Millisecond))
	url := pgtest.NewDatabase(t)
	hostKey := filepath.Join(t.TempDir(), "host_key")
	c := &cluster{db: backend{name: "postgres", url: url}}
	var dn []deployNode
	var addrs, ready []string
	for i := range 3 {
		d := deployNode{name: fmt.Sprintf("node%d", i+1), ssh: heldAddr(t), metrics: heldAddr(t), channel: heldAddr(t), data: t.TempDir()}
		dn, addrs, ready = append(dn, d), append(addrs, d.ssh), append(ready, d.metrics)
	}
	// run starts node i from program, as a host's unit would: the same
	// flags before and after the upgrade, only the binary differs. The
	// drain is long; the deploy ends it (a second SIGTERM) once HAProxy
	// has taken the node out of its rotation.
	run := func(i int, program string) {
		t.Helper()
		d := dn[i]
		p := startBin(t, program, d.ssh, d.data, "--store", url, "--lease-ttl", leaseTTL.String(), "--node", d.name,
			"--host-key", hostKey, "--proxy-protocol-from", balancerIP+"/32", "--cluster-listen", d.channel,
			"--metrics", d.metrics, "--drain", "1m")
		select {
		case <-p.done:
			t.Fatalf("%s (%s) exited at start: %v\n%s", d.name, filepath.Base(program), p.err, p.stderr)
		default:
		}
		n := node{proc: p, name: d.name}
		if i < len(c.nodes) {
			c.nodes[i] = n
		} else {
			c.nodes = append(c.nodes, n)
		}
	}
	for i := range dn {
		run(i, bin)
	}
	c.lb = haproxytest.Start(t, haproxytest.Config{Nodes: addrs, Balance: "roundrobin", Source: balancerIP, Check: true, Ready: ready})
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range c.nodes {
				t.Logf("%s's log:\n%s", n.name, n.stderr)
			}
		}
	})
	st := c.db.open(t, "")
	// lbSays waits for HAProxy to report s (haproxyStatus) for the count-th
	// time.
	lbSays := func(s string, count int) {
		t.Helper()
		if !await.Within(time.Minute, func() bool { return strings.Count(c.lb.Output(), s) >= count }) {
			t.Fatalf("HAProxy never said %q (%d times):\n%s", s, count, c.lb.Output())
		}
	}

	players := newPlayers(t, 4)
	on := make([]int, len(players)) // the node each player plays on
	for i, pl := range players {
		on[i] = i % 3
		pl.enter(t, c.onNode(t, pl, on[i]))
		pl.rest(t, 2+i)
	}
	// check fails t unless pl's stored game is at the turn pl's screen
	// shows, with nothing in flight.
	check := func(pl *player, when string) {
		t.Helper()
		if g := storedGame(t, st, pl).game; g.Turn() != pl.shown {
			t.Fatalf("%s, %s: the store holds turn %d, the screen shows %d", pl.name, when, g.Turn(), pl.shown)
		}
	}
	// moveTo takes pl out of their session and back in through HAProxy
	// until a session lands on node to, and checks the game resumes at the
	// turn the screen showed, then plays a turn there.
	moveTo := func(i, to int, why string) {
		t.Helper()
		pl := players[i]
		pl.c.Close()
		screen := pl.enter(t, c.onNode(t, pl, to))
		if got := turnOf(screen); got != pl.shown || around(screen) != pl.around {
			t.Fatalf("%s (%s): the screen showed turn %d, resumed on %s at turn %d:\n%s", pl.name, why, pl.shown, c.nodes[to].name, got, screen)
		}
		on[i] = to
		pl.rest(t, 1)
		check(pl, why)
		t.Logf("%s: moved %s (%s), at turn %d", pl.name, why, c.nodes[to].name, pl.shown)
	}
	// leaveNewer ends pl's session on a newer node, which saves the game
	// (a snapshot, the journal folded in) as the session ends, and waits
	// until the store holds that save, with the newer build's field.
	leaveNewer := func(pl *player) {
		t.Helper()
		pl.c.Close()
		await.Until(t, time.Minute, pl.name+"'s save written by the newer build as the session ended", func() bool {
			blob, err := st.Save(keyFP(pl))
			return err == nil && strings.Contains(string(blob), newerMark)
		})
	}
	upgraded := make([]bool, 3)

	// restart stops node i as a deploy does and starts program in its
	// place: SIGTERM (the node drains: /readyz 503, still serving), HAProxy
	// takes it out of its rotation, its players play on meanwhile; a second
	// SIGTERM ends the drain, and every player on it is told, comes back
	// through HAProxy onto another node and resumes at the turn their
	// screen showed. Then the node runs program and HAProxy takes it back.
	restart := func(i int, program string) {
		t.Helper()
		n := c.nodes[i]
		downs, ups := strings.Count(c.lb.Output(), haproxyStatus(n.name, "DOWN")), strings.Count(c.lb.Output(), haproxyStatus(n.name, "UP"))
		n.sigterm()
		lbSays(haproxyStatus(n.name, "DOWN"), downs+1)
		var leaving []int
		for j, pl := range players {
			if on[j] == i {
				leaving = append(leaving, j)
				pl.rest(t, 1) // the draining node still serves its players
			}
		}
		n.sigterm()
		if code := n.exit(t, time.Minute); code != 0 {
			t.Fatalf("%s exited %d after its drain:\n%s", n.name, code, n.stderr)
		}
		for _, j := range leaving {
			pl := players[j]
			await.Recv(t, time.Minute, pl.name+"'s session ending as "+n.name+" stops", pl.c.Done())
			if out := string(pl.c.Output()); !strings.Contains(out, restarting) {
				t.Errorf("%s was not told the node stopped: %q", pl.name, out[max(0, len(out)-300):])
			}
			pl.c.Close()
			check(pl, "saved at the node's stop")
			screen, _ := pl.resume(t, c.lb.Addr)
			on[j] = c.nodeOf(t, pl.c)
			if on[j] < 0 || on[j] == i {
				t.Fatalf("%s came back on node %d, not another running node", pl.name, on[j]+1)
			}
			if got := turnOf(screen); got != pl.shown || around(screen) != pl.around {
				t.Fatalf("%s: the screen showed turn %d before %s stopped, resumed on %s at turn %d:\n%s",
					pl.name, pl.shown, n.name, c.nodes[on[j]].name, got, screen)
			}
			pl.rest(t, 1)
			check(pl, "resumed on "+c.nodes[on[j]].name)
			t.Logf("%s: %s stopped at turn %d; resumed on %s (%s)", pl.name, n.name, pl.shown-1, c.nodes[on[j]].name, strings.Join(pl.via, ", "))
		}
		run(i, program)
		lbSays(haproxyStatus(n.name, "UP"), ups+1)
		upgraded[i] = program == newer
	}

	for i := range dn {
		restart(i, newer)
		t.Logf("%s upgraded at %v", dn[i].name, time.Since(began).Round(100*time.Millisecond))
		if i == 2 {
			break
		}
		// Old and new side by side: a player of an older node moves to the
		// newer one, and one whose save the newer build wrote moves to an
		// older node, which plays it on.
		for j := range players {
			if !upgraded[on[j]] {
				moveTo(j, i, "from an older node to a newer one")
				break
			}
		}
		for j := range players {
			if upgraded[on[j]] {
				leaveNewer(players[j])
				moveTo(j, 2, "from a newer node to an older one")
				break
			}
		}
	}

	// A rollback of one node: the older build on the schema the newer one
	// migrated, playing on a game the newer build saved.
	restart(0, bin)
	t.Logf("node1 rolled back at %v", time.Since(began).Round(100*time.Millisecond))
	if strings.Contains(c.nodes[0].stderr.String(), "schema") && strings.Contains(c.nodes[0].stderr.String(), "newer") {
		t.Errorf("the rolled-back node complains of the schema:\n%s", c.nodes[0].stderr)
	}
	for j, pl := range players {
		if on[j] != 0 {
			leaveNewer(pl)
			moveTo(j, 0, "from a newer node to the rolled-back one")
			break
		}
	}
	for _, pl := range players {
		pl.rest(t, 1)
		check(pl, "at the end")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	var version int
	if err := db.QueryRow(ctx, `SELECT version FROM schema_migrations`).Scan(&version); err != nil || version != schema {
		t.Errorf("the schema is at version %d (%v), want the newer build's %d", version, err, schema)
	}
	t.Logf("deploy and rollback done in %v", time.Since(began).Round(100*time.Millisecond))
}

// A deploy whose newer build changes the rules: a game the newer build has
// played a turn of cannot go on on an older node (its turns went by rules
// the older build does not know). A player who meets an older node (before
// it is upgraded, or after a rollback) reads so in words, the game is
// kept (never set aside as damaged), and resumes on a newer node at the
// turn their screen showed, even when the newer node was killed before
// it saved the game at the session's end.
func TestDuringADeployThatChangesTheRulesAnOlderNodeSaysAGameOfTheNewerRulesOpensOnlyOnANewerNode(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	newer, _ := buildNewer(t, true)
	url := pgtest.NewDatabase(t)
	b := backend{name: "postgres", url: url}
	older := b.start(t, anyPort, t.TempDir(), "--node", "older")
	newAddr, newData := heldAddr(t), t.TempDir()
	flags := []string{"--store", url, "--lease-ttl", leaseTTL.String(), "--node", "newer"}
	newerNode := startBin(t, newer, newAddr, newData, flags...)
	st := b.open(t, "")
	pl, fresh := newPlayers(t, 2)[0], newPlayers(t, 2)[1]

	// Begun on the older node, played on on the newer one.
	pl.enter(t, pl.arrive(t, older.addr))
	pl.rest(t, 3)
	pl.c.Close()
	screen := pl.enter(t, pl.arrive(t, newerNode.addr))
	if got := turnOf(screen); got != pl.shown {
		t.Fatalf("the newer node resumed the older node's game at turn %d, the screen showed %d:\n%s", got, pl.shown, screen)
	}
	pl.rest(t, 2)
	// The newer node dies with the game in its session: what the store
	// holds is what it wrote turn by turn.
	newerNode.kill9(t)
	pl.c.Close()
	// Begun on the newer node.
	newerNode = startBin(t, newer, newAddr, newData, flags...)
	fresh.enter(t, fresh.arrive(t, newerNode.addr))
	fresh.rest(t, 2)
	fresh.c.Close()

	for _, p := range []*player{pl, fresh} {
		title := p.arrive(t, older.addr)
		if !strings.Contains(title, "newer version of grotto") || strings.Contains(title, "Continue") {
			t.Errorf("%s: the older node's title does not say the game opens on a newer node, or offers to continue it:\n%s", p.name, title)
		}
		p.c.Close()
		if q, err := st.Quarantined(keyFP(p)); err != nil || len(q) != 0 {
			t.Errorf("%s: the older node set the newer game aside as damaged: %v %v", p.name, q, err)
		}
	}
	for _, p := range []*player{pl, fresh} {
		screen := p.enter(t, p.arrive(t, newerNode.addr))
		if got := turnOf(screen); got != p.shown || around(screen) != p.around {
			t.Errorf("%s: the screen showed turn %d, the newer node resumed at turn %d:\n%s", p.name, p.shown, got, screen)
		}
		p.c.Close()
	}
}
