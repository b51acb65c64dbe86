package cluster_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/store"
)

// fakeLocal is a node's games as the lobby would offer them: each key's
// game keeps its latest frame, and each watcher a one-slot channel.
type fakeLocal struct {
	mu     sync.Mutex
	games  map[string]*fakeGame
	heard  []string            // broadcasts shown
	events []string            // event lines taken
	stuck  map[string]struct{} // keys whose session is told to leave and never lets go
	calls  atomic.Int64        // calls of Evict, Watch, Broadcast and Kick
}

type fakeGame struct {
	frame    []byte
	watchers map[int]chan []byte
	next     int
	chat     []cluster.ChatLine
	chatters map[int]chan cluster.ChatState
}

func newLocal(fps ...string) *fakeLocal {
	l := &fakeLocal{games: map[string]*fakeGame{}, stuck: map[string]struct{}{}}
	for _, fp := range fps {
		l.games[fp] = &fakeGame{watchers: map[int]chan []byte{}, chatters: map[int]chan cluster.ChatState{}}
	}
	return l
}

// publish makes frame fp's latest; it never waits for a watcher.
func (l *fakeLocal) publish(fp string, frame []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.games[fp]
	g.frame = frame
	for _, ch := range g.watchers {
		select {
		case <-ch:
		default:
		}
		ch <- frame
	}
}

// end ends fp's game: its watchers' channels close.
func (l *fakeLocal) end(fp string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g, ok := l.games[fp]; ok {
		for _, ch := range g.watchers {
			close(ch)
		}
		for _, ch := range g.chatters {
			close(ch)
		}
		delete(l.games, fp)
	}
}

func (l *fakeLocal) has(fp string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.games[fp]
	return ok
}

func (l *fakeLocal) watchers(fp string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g, ok := l.games[fp]; ok {
		return len(g.watchers)
	}
	return 0
}

func (l *fakeLocal) Evict(ctx context.Context, fp string) error {
	l.calls.Add(1)
	if !l.has(fp) {
		return cluster.ErrNotHere
	}
	l.end(fp)
	return nil
}

// Broadcast shows text to every game (each a session).
func (l *fakeLocal) Broadcast(_ context.Context, text string) (int, error) {
	l.calls.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.heard = append(l.heard, text)
	return len(l.games), nil
}

// Events keeps the event lines it is given.
func (l *fakeLocal) Events(lines [][]byte) {
	l.calls.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range lines {
		l.events = append(l.events, string(line))
	}
}

func (l *fakeLocal) heardEvents() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

func (l *fakeLocal) said() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.heard)
}

// Kick ends fp's game, unless its session is stuck.
func (l *fakeLocal) Kick(_ context.Context, fp string) error {
	l.calls.Add(1)
	if !l.has(fp) {
		return cluster.ErrNotHere
	}
	l.mu.Lock()
	_, stuck := l.stuck[fp]
	l.mu.Unlock()
	if stuck {
		return cluster.ErrStillLeaving
	}
	l.end(fp)
	return nil
}

func (l *fakeLocal) Watch(fp string) (<-chan []byte, func(), bool) {
	l.calls.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.games[fp]
	if !ok {
		return nil, nil, false
	}
	g.next++
	id := g.next
	ch := make(chan []byte, 1)
	if g.frame != nil {
		ch <- g.frame
	}
	g.watchers[id] = ch
	return ch, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if w, ok := g.watchers[id]; ok {
			delete(g.watchers, id)
			close(w)
		}
	}, true
}

// Chat streams fp's chat: its lines now, then after each line said.
func (l *fakeLocal) Chat(fp string) (<-chan cluster.ChatState, func(), bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.games[fp]
	if !ok {
		return nil, nil, false
	}
	g.next++
	id := g.next
	ch := make(chan cluster.ChatState, 1)
	ch <- cluster.ChatState{Lines: slices.Clone(g.chat)}
	g.chatters[id] = ch
	return ch, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if c, ok := g.chatters[id]; ok {
			delete(g.chatters, id)
			close(c)
		}
	}, true
}

// Say adds line to fp's chat, unless its text is "too fast" (refused as
// a chat over its rate would be).
func (l *fakeLocal) Say(_ context.Context, fp string, line cluster.Said) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	g, ok := l.games[fp]
	if !ok {
		return cluster.ErrNotHere
	}
	if line.Text == "too fast" {
		return errors.New("too-fast")
	}
	g.chat = append(g.chat, cluster.ChatLine{Name: line.Name, Text: line.Text})
	for _, ch := range g.chatters {
		select {
		case <-ch:
		default:
		}
		ch <- cluster.ChatState{Lines: slices.Clone(g.chat)}
	}
	return nil
}

// directory is where the nodes' channels listen, as store.Cluster's
// NodeAddr would tell.
type directory struct{ addrs sync.Map }

func (d *directory) addrOf(_ context.Context, node string) (string, error) {
	if a, ok := d.addrs.Load(node); ok {
		return a.(string), nil
	}
	return "", fmt.Errorf("address of node %q: %w", node, store.ErrNotFound)
}

// node is one grotto node's channel: its server on a loopback port, its
// games, and its client.
type node struct {
	name   string
	local  *fakeLocal
	srv    *cluster.Server
	addr   string
	client *cluster.Client
}

func newSecret(t testing.TB) []byte {
	t.Helper()
	s := make([]byte, store.ClusterSecretSize)
	rand.Read(s)
	return s
}

// startNode starts node name's server on loopback with secret, listed in
// dir, serving local.
func startNode(t testing.TB, dir *directory, secret []byte, name string, local *fakeLocal) *node {
	t.Helper()
	creds, err := cluster.NewCredentials(secret, name)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := cluster.NewServer(creds, local, log.New(io.Discard))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := recv(t, "Serve to return after Close", served); !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("node %s: Serve returned %v, want http.ErrServerClosed", name, err)
		}
	})
	n := &node{name: name, local: local, srv: srv, addr: ln.Addr().String(), client: cluster.NewClient(creds, dir.addrOf)}
	dir.addrs.Store(name, n.addr)
	t.Cleanup(n.client.CloseIdleConnections)
	return n
}

func ctxMinute(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// next returns the next frame of frames, failing after a minute; nil when
// the channel closed.
func next(t testing.TB, frames <-chan []byte) []byte {
	t.Helper()
	select {
	case f, ok := <-frames:
		if !ok {
			return nil
		}
		return f
	case <-time.After(time.Minute):
		t.Fatal("no frame within a minute")
		return nil
	}
}

// closed waits for frames to close, reading what is left.
func closed(t testing.TB, frames <-chan []byte) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case _, ok := <-frames:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the watch did not close within a minute")
		}
	}
}

// Two nodes of one cluster: b watches a game on a, then takes it over
// (evicts it from a); the watch closes as the game ends on a. A key a node
// has no game of is ErrNotHere both ways.
func TestTwoNodesEvictAndWatchEachOther(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:amy"))
	b := startNode(t, dir, secret, "node-b", newLocal("SHA256:bob"))
	ctx := ctxMinute(t)

	a.local.publish("SHA256:amy", []byte("amy turn 1"))
	frames, stop, err := b.client.Watch(ctx, "node-a", "SHA256:amy")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if f := next(t, frames); string(f) != "amy turn 1" {
		t.Fatalf("first frame %q, want the latest, amy turn 1", f)
	}
	a.local.publish("SHA256:amy", []byte("amy turn 2"))
	if f := next(t, frames); string(f) != "amy turn 2" {
		t.Fatalf("second frame %q, want amy turn 2", f)
	}
	if err := b.client.Evict(ctx, "node-a", "SHA256:amy"); err != nil {
		t.Fatalf("b evicts amy's game from a: %v", err)
	}
	if a.local.has("SHA256:amy") {
		t.Error("after the eviction a still has amy's game")
	}
	closed(t, frames)

	// And the other way round, on the same connections.
	if err := a.client.Evict(ctx, "node-b", "SHA256:bob"); err != nil {
		t.Fatalf("a evicts bob's game from b: %v", err)
	}
	if err := a.client.Evict(ctx, "node-b", "SHA256:bob"); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("a evicts bob's game again: %v, want ErrNotHere", err)
	}
	if err := b.client.Evict(ctx, "node-a", "SHA256:nobody"); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("an eviction of a key with no game: %v, want ErrNotHere", err)
	}
	if _, _, err := b.client.Watch(ctx, "node-a", "SHA256:nobody"); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("a watch of a key with no game: %v, want ErrNotHere", err)
	}
}

// An admin's tools across nodes: a broadcast from b reaches every session
// on a, which says how many; a kick from b ends a game on a, and a key a
// has no game of is ErrNotHere; a session told to leave that has not let
// go yet is ErrStillLeaving; a text a node must not take is refused before
// it reaches the games.
func TestANodeBroadcastsAndKicksOnAnother(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:amy", "SHA256:ann", "SHA256:stuck"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	ctx := ctxMinute(t)

	text := "Server restarts at noon — back in 5 minutes"
	if n, err := b.client.Broadcast(ctx, "node-a", text); err != nil || n != 3 {
		t.Fatalf("broadcast on a: %d sessions, %v; want 3", n, err)
	}
	if said := a.local.said(); len(said) != 1 || said[0] != text {
		t.Errorf("a showed %q, want the text once as sent", said)
	}
	if n, err := a.client.Broadcast(ctx, "node-b", text); err != nil || n != 0 {
		t.Errorf("broadcast on b, which has no sessions: %d, %v; want 0", n, err)
	}

	if err := b.client.Kick(ctx, "node-a", "SHA256:amy"); err != nil {
		t.Fatalf("kick amy on a: %v", err)
	}
	if a.local.has("SHA256:amy") || !a.local.has("SHA256:ann") {
		t.Error("the kick did not end amy's game alone")
	}
	if err := b.client.Kick(ctx, "node-a", "SHA256:amy"); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("kick amy again: %v, want ErrNotHere", err)
	}
	a.local.mu.Lock()
	a.local.stuck["SHA256:stuck"] = struct{}{}
	a.local.mu.Unlock()
	if err := b.client.Kick(ctx, "node-a", "SHA256:stuck"); !errors.Is(err, cluster.ErrStillLeaving) {
		t.Errorf("kick a session that has not let go: %v, want ErrStillLeaving", err)
	}

	before := a.local.calls.Load()
	for name, body := range map[string]string{
		"empty":     "",
		"not UTF-8": "\xff\xfe",
		"too long":  strings.Repeat("x", cluster.MaxBroadcast+1),
	} {
		if _, err := b.client.Broadcast(ctx, "node-a", body); err == nil {
			t.Errorf("a broadcast %s was taken", name)
		}
	}
	if n := a.local.calls.Load(); n != before {
		t.Errorf("refused broadcasts reached a's games %d times", n-before)
	}
	if said := a.local.said(); len(said) != 1 {
		t.Errorf("a showed %q after the refused broadcasts", said)
	}
}

// A watch closes when the remote game ends; stop ends the remote
// subscription too; a server that closes ends its watches.
func TestAWatchClosesWithTheRemoteGame(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:p", "SHA256:q", "SHA256:r"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	ctx := ctxMinute(t)

	t.Run("the game ends", func(t *testing.T) {
		frames, stop, err := b.client.Watch(ctx, "node-a", "SHA256:p")
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		a.local.publish("SHA256:p", []byte("last"))
		if f := next(t, frames); string(f) != "last" {
			t.Fatalf("frame %q, want last", f)
		}
		a.local.end("SHA256:p")
		closed(t, frames)
	})
	t.Run("the watcher stops", func(t *testing.T) {
		frames, stop, err := b.client.Watch(ctx, "node-a", "SHA256:q")
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool { return a.local.watchers("SHA256:q") == 1 })
		stop()
		stop()
		closed(t, frames)
		waitFor(t, func() bool { return a.local.watchers("SHA256:q") == 0 })
	})
	t.Run("the node closes", func(t *testing.T) {
		frames, stop, err := b.client.Watch(ctx, "node-a", "SHA256:r")
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		a.srv.Close()
		closed(t, frames)
		if n := a.local.watchers("SHA256:r"); n != 0 {
			t.Errorf("after Close the game has %d watchers, want 0", n)
		}
	})
}

// waitFor waits up to a minute for cond.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	await.Until(t, time.Minute, "the condition", cond)
}

// A watcher that reads nothing while the game publishes 300 frames of
// 32 KB never holds the game up, and then reads frames in order, only
// missing some, up to the last one.
func TestASlowWatcherOnlyMissesFrames(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:p"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	frames, stop, err := b.client.Watch(ctxMinute(t), "node-a", "SHA256:p")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	const n = 300
	frame := func(i int) []byte {
		f := make([]byte, 32<<10)
		copy(f, strconv.Itoa(i)+";")
		return f
	}
	for i := 1; i <= n; i++ {
		a.local.publish("SHA256:p", frame(i)) // never waits: it would hang here
	}
	var got []int
	for last := 0; last != n; {
		f := next(t, frames)
		if f == nil {
			t.Fatalf("the watch closed after frames %v", got)
		}
		i, err := strconv.Atoi(string(f[:bytes.IndexByte(f, ';')]))
		if err != nil || len(f) != 32<<10 {
			t.Fatalf("a frame of %d bytes, %q…", len(f), f[:8])
		}
		got = append(got, i)
		last = i
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("frames read %v: want increasing", got)
		}
	}
	t.Logf("the slow watcher read %d of %d frames", len(got), n)
}

// A frame above MaxFrame is not sent; the watch goes on with the next.
func TestAFrameTooLargeIsSkipped(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:p"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	frames, stop, err := b.client.Watch(ctxMinute(t), "node-a", "SHA256:p")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	a.local.publish("SHA256:p", make([]byte, cluster.MaxFrame+1))
	a.local.publish("SHA256:p", []byte("small")) // may replace the large one unread
	if f := next(t, frames); string(f) != "small" {
		t.Errorf("frame of %d bytes, want the small one", len(f))
	}
}

// Whoever lacks the cluster's secret is refused before the node's games
// are ever asked: a node of another cluster (either way round), a node
// answering for another, a plain TCP client, a TLS client without a
// certificate or with its own, plain HTTP.
func TestStrangersAreRefused(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:p"))
	a.local.publish("SHA256:p", []byte("frame"))
	ctx := ctxMinute(t)

	// A node of another cluster calls a, and is called by a.
	other := &directory{}
	other.addrs.Store("node-a", a.addr)
	x := startNode(t, other, newSecret(t), "node-x", newLocal("SHA256:x"))
	dir.addrs.Store("node-x", x.addr)
	t.Run("a node of another cluster calls", func(t *testing.T) {
		if err := x.client.Evict(ctx, "node-a", "SHA256:p"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("evict: %v, want ErrUntrusted", err)
		}
		if _, _, err := x.client.Watch(ctx, "node-a", "SHA256:p"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("watch: %v, want ErrUntrusted", err)
		}
		if _, err := x.client.Broadcast(ctx, "node-a", "hello"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("broadcast: %v, want ErrUntrusted", err)
		}
		if err := x.client.Kick(ctx, "node-a", "SHA256:p"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("kick: %v, want ErrUntrusted", err)
		}
	})
	t.Run("a node of another cluster is called", func(t *testing.T) {
		if err := a.client.Evict(ctx, "node-x", "SHA256:x"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("evict: %v, want ErrUntrusted", err)
		}
		if _, _, err := a.client.Watch(ctx, "node-x", "SHA256:x"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("watch: %v, want ErrUntrusted", err)
		}
	})
	t.Run("a node answers for another", func(t *testing.T) {
		b := startNode(t, dir, secret, "node-b", newLocal("SHA256:b"))
		dir.addrs.Store("node-c", b.addr) // c's address now reaches b
		if err := a.client.Evict(ctx, "node-c", "SHA256:b"); !errors.Is(err, cluster.ErrUntrusted) {
			t.Errorf("evict: %v, want ErrUntrusted", err)
		}
		if b.local.calls.Load() != 0 {
			t.Errorf("b's games were asked %d times", b.local.calls.Load())
		}
	})
	t.Run("a plain TCP client", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", a.addr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Minute))
		fmt.Fprintf(conn, "POST /v1/evict?fp=SHA256:p HTTP/1.1\r\nHost: x\r\n\r\n")
		reply, _ := io.ReadAll(conn)
		if bytes.Contains(reply, []byte("204")) || bytes.Contains(reply, []byte("200 OK")) {
			t.Errorf("the node answered %q", reply)
		}
	})
	t.Run("plain HTTP", func(t *testing.T) {
		hc := &http.Client{Timeout: time.Minute}
		resp, err := hc.Get("http://" + a.addr + "/v1/watch?fp=SHA256:p")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("plain HTTP got %s", resp.Status)
			}
		}
	})
	for _, c := range []struct {
		name  string
		certs []tls.Certificate
	}{
		{"a TLS client without a certificate", nil},
		{"a TLS client with its own certificate", []tls.Certificate{selfSigned(t, "node-a")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &http.Transport{
				TLSClientConfig:   &tls.Config{InsecureSkipVerify: true, Certificates: c.certs},
				ForceAttemptHTTP2: true,
			}
			defer tr.CloseIdleConnections()
			hc := &http.Client{Transport: tr, Timeout: time.Minute}
			resp, err := hc.Post("https://"+a.addr+"/v1/evict?fp=SHA256:p", "", nil)
			if err == nil {
				resp.Body.Close()
				t.Errorf("the node answered %s", resp.Status)
			}
		})
	}
	t.Run("a TLS client without a certificate broadcasts", func(t *testing.T) {
		tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, ForceAttemptHTTP2: true}
		defer tr.CloseIdleConnections()
		hc := &http.Client{Transport: tr, Timeout: time.Minute}
		resp, err := hc.Post("https://"+a.addr+"/v1/broadcast", "text/plain", strings.NewReader("hello"))
		if err == nil {
			resp.Body.Close()
			t.Errorf("the node answered %s", resp.Status)
		}
	})
	if n := a.local.calls.Load(); n != 0 {
		t.Errorf("a's games were asked %d times by strangers", n)
	}
	if said := a.local.said(); len(said) != 0 {
		t.Errorf("a stranger's broadcast was shown: %q", said)
	}
	if !a.local.has("SHA256:p") {
		t.Error("a stranger evicted the game")
	}
	// And a still serves its cluster.
	b := startNode(t, dir, secret, "node-b2", newLocal())
	if _, stop, err := b.client.Watch(ctx, "node-a", "SHA256:p"); err != nil {
		t.Errorf("after the strangers, a node of the cluster: %v", err)
	} else {
		stop()
	}
}

// selfSigned returns a certificate for name that no cluster signed.
func selfSigned(t testing.TB, name string) tls.Certificate {
	t.Helper()
	creds, err := cluster.NewCredentials(newSecret(t), name)
	if err != nil {
		t.Fatal(err)
	}
	return creds.Certificate()
}

// A node that is gone is ErrUnreachable, at once rather than at the
// caller's deadline: nothing listens at its address, it announces none, it
// closed since the last call, or it accepts connections but never answers.
func TestADeadNodeIsUnreachable(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal())
	ctx := ctxMinute(t)
	check := func(t *testing.T, node string) {
		t.Helper()
		if err := a.client.Evict(ctx, node, "SHA256:p"); !errors.Is(err, cluster.ErrUnreachable) {
			t.Errorf("evict: %v, want ErrUnreachable", err)
		}
		if _, _, err := a.client.Watch(ctx, node, "SHA256:p"); !errors.Is(err, cluster.ErrUnreachable) {
			t.Errorf("watch: %v, want ErrUnreachable", err)
		}
		if node == "node-hung" {
			return // each call waits out HandshakeTimeout: the two above show it
		}
		if _, err := a.client.Broadcast(ctx, node, "hello"); !errors.Is(err, cluster.ErrUnreachable) {
			t.Errorf("broadcast: %v, want ErrUnreachable", err)
		}
		if err := a.client.Kick(ctx, node, "SHA256:p"); !errors.Is(err, cluster.ErrUnreachable) {
			t.Errorf("kick: %v, want ErrUnreachable", err)
		}
	}
	t.Run("nothing listens", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dir.addrs.Store("node-gone", ln.Addr().String())
		ln.Close()
		check(t, "node-gone")
	})
	t.Run("no announcement", func(t *testing.T) { check(t, "node-never") })
	t.Run("closed since the last call", func(t *testing.T) {
		b := startNode(t, dir, secret, "node-b", newLocal("SHA256:x"))
		if err := a.client.Evict(ctx, "node-b", "SHA256:x"); err != nil {
			t.Fatal(err)
		}
		b.srv.Close()
		check(t, "node-b")
	})
	t.Run("it never answers", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		var held []net.Conn // accepted, never read
		var mu sync.Mutex
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				held = append(held, c)
				mu.Unlock()
			}
		}()
		defer func() {
			mu.Lock()
			for _, c := range held {
				c.Close()
			}
			mu.Unlock()
		}()
		dir.addrs.Store("node-hung", ln.Addr().String())
		check(t, "node-hung")
	})
}

// Garbage of every size sent to the listener (fixed seed) neither crashes
// it nor reaches the games, and the node still answers its cluster.
func TestGarbageDoesNotCrashTheListener(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:p"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	for i, g := range garbage() {
		sendGarbage(t, a.addr, g)
		if i%8 == 0 {
			if _, stop, err := b.client.Watch(ctxMinute(t), "node-a", "SHA256:p"); err != nil {
				t.Fatalf("after garbage %d: %v", i, err)
			} else {
				stop()
			}
		}
	}
	if n := a.local.calls.Load(); n == 0 {
		t.Error("the cluster's own watches never reached the games")
	}
}

// garbage returns inputs for the listener: random bytes (seeded), TLS
// record headers announcing huge records, truncated handshakes, HTTP/2's
// preface in clear.
func garbage() [][]byte {
	out := [][]byte{
		{},
		{0x16, 0x03, 0x01, 0xff, 0xff}, // a handshake record of 64 KB, never sent
		{0x16, 0x03, 0x03, 0x00, 0x05, 0x01, 0xff, 0xff, 0xff, 0xff}, // a ClientHello of 16 MB
		{0x17, 0x03, 0x03, 0x00, 0x10},                               // application data before a handshake
		[]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
		[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
	}
	var seed [32]byte
	seed[0] = 13
	r := newRand(seed)
	for n := 1; n <= 1<<16; n *= 4 {
		g := make([]byte, n)
		r.Read(g)
		out = append(out, g)
		h := slices.Clone(g)
		if len(h) > 5 {
			copy(h, []byte{0x16, 0x03, 0x01}) // looks like TLS, then is not
		}
		out = append(out, h)
	}
	return out
}

// sendGarbage writes g to addr and reads what comes back until the node
// closes or a short while passes.
func sendGarbage(t testing.TB, addr string, g []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatalf("the listener is gone: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(200 * time.Millisecond))
	conn.Write(g)
	io.Copy(io.Discard, conn)
}

// FuzzListener sends its input to a node's listener: the node neither
// crashes nor lets the input reach its games.
func FuzzListener(f *testing.F) {
	for _, g := range garbage()[:8] {
		f.Add(g)
	}
	dir := &directory{}
	a := startNode(f, dir, newSecret(f), "node-a", newLocal("SHA256:p"))
	f.Fuzz(func(t *testing.T, g []byte) {
		sendGarbage(t, a.addr, g)
		if n := a.local.calls.Load(); n != 0 {
			t.Fatalf("garbage reached the games (%d calls)", n)
		}
	})
}

// blockingLocal's Evict waits for its context; Watch has no game.
type blockingLocal struct {
	entered chan struct{}
	left    atomic.Bool
}

func (l *blockingLocal) Evict(ctx context.Context, fp string) error {
	close(l.entered)
	<-ctx.Done()
	l.left.Store(true)
	return ctx.Err()
}

func (l *blockingLocal) Watch(string) (<-chan []byte, func(), bool) { return nil, nil, false }

func (l *blockingLocal) Broadcast(context.Context, string) (int, error) { return 0, nil }
func (l *blockingLocal) Events([][]byte)                                {}
func (l *blockingLocal) Chat(string) (<-chan cluster.ChatState, func(), bool) {
	return nil, nil, false
}
func (l *blockingLocal) Say(context.Context, string, cluster.Said) error { return cluster.ErrNotHere }

func (l *blockingLocal) Kick(context.Context, string) error { return cluster.ErrNotHere }

// Close cuts short an eviction in flight (its context ends) and returns
// only once it has left the node's games; the caller sees the node gone.
func TestCloseWaitsForTheCallsInFlight(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	creds, err := cluster.NewCredentials(secret, "node-a")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	local := &blockingLocal{entered: make(chan struct{})}
	srv := cluster.NewServer(creds, local, log.New(io.Discard))
	go srv.Serve(ln)
	dir.addrs.Store("node-a", ln.Addr().String())
	b := startNode(t, dir, secret, "node-b", newLocal())
	ctx := ctxMinute(t)
	done := make(chan error, 1)
	go func() { done <- b.client.Evict(ctx, "node-a", "SHA256:p") }()
	recv(t, "the eviction to reach the node", local.entered)
	srv.Close()
	if !local.left.Load() {
		t.Error("Close returned with an eviction still in the node's games")
	}
	if err := recv(t, "the caller's eviction to return", done); !errors.Is(err, cluster.ErrUnreachable) {
		t.Errorf("the caller: %v, want ErrUnreachable", err)
	}
}

// TestANodeHandsAnotherItsEventsLineByLine: event lines sent from b reach
// a's Local in order, each whole; a body above MaxEvents is refused.
func TestANodeHandsAnotherItsEventsLineByLine(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal())
	b := startNode(t, dir, secret, "node-b", newLocal())
	ctx := ctxMinute(t)
	if err := b.client.Events(ctx, "node-a", []byte("{\"id\":\"1\"}\n{\"id\":\"2\"}\n")); err != nil {
		t.Fatal(err)
	}
	if got := a.local.heardEvents(); len(got) != 2 || got[0] != "{\"id\":\"1\"}\n" || got[1] != "{\"id\":\"2\"}\n" {
		t.Errorf("a heard %q, want the two lines in order", got)
	}
	if err := b.client.Events(ctx, "node-a", make([]byte, cluster.MaxEvents+1)); err == nil {
		t.Error("a body above MaxEvents was taken")
	}
}

// TestANodeReadsAndSaysInTheChatOfAGameOnAnother: b streams the chat of
// a's game and says a line in it, which comes back on the stream; a line
// a's chat refuses is a RefusedError with a's reason; a key with no game
// on a is ErrNotHere both ways; the stream closes with the game.
func TestANodeReadsAndSaysInTheChatOfAGameOnAnother(t *testing.T) {
	dir := &directory{}
	secret := newSecret(t)
	a := startNode(t, dir, secret, "node-a", newLocal("SHA256:amy"))
	b := startNode(t, dir, secret, "node-b", newLocal())
	ctx := ctxMinute(t)

	states, stop, err := b.client.Chat(ctx, "node-a", "SHA256:amy")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if st := recv(t, "the chat as it is", states); len(st.Lines) != 0 {
		t.Fatalf("first state %+v, want no line yet", st)
	}
	if err := b.client.Say(ctx, "node-a", "SHA256:amy", cluster.Said{Key: "SHA256:bob", Name: "bob", Text: "hi amy"}); err != nil {
		t.Fatal(err)
	}
	if st := recv(t, "the chat after bob's line", states); len(st.Lines) != 1 || st.Lines[0] != (cluster.ChatLine{Name: "bob", Text: "hi amy"}) {
		t.Fatalf("state %+v, want bob's line", st)
	}
	var refused *cluster.RefusedError
	if err := b.client.Say(ctx, "node-a", "SHA256:amy", cluster.Said{Key: "SHA256:bob", Name: "bob", Text: "too fast"}); !errors.As(err, &refused) || refused.Reason != "too-fast" {
		t.Errorf("a refused line: %v, want a RefusedError saying too-fast", err)
	}
	if err := b.client.Say(ctx, "node-a", "SHA256:nobody", cluster.Said{Key: "SHA256:bob", Name: "bob", Text: "hi"}); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("a line in the chat of no game: %v, want ErrNotHere", err)
	}
	if _, _, err := b.client.Chat(ctx, "node-a", "SHA256:nobody"); !errors.Is(err, cluster.ErrNotHere) {
		t.Errorf("the chat of no game: %v, want ErrNotHere", err)
	}
	a.local.end("SHA256:amy")
	deadline := time.After(time.Minute)
	for open := true; open; {
		select {
		case _, open = <-states:
		case <-deadline:
			t.Fatal("the chat's stream did not close with the game")
		}
	}
}
