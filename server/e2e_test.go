package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/store/bolt"
)

const waitLong = 10 * time.Second

func dial(t *testing.T, addr string, key gossh.Signer, w, h int) *sshtest.Client {
	t.Helper()
	c, err := sshtest.Dial(addr, key, sshtest.Options{Width: w, Height: h, User: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	k, err := sshtest.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func waitText(t *testing.T, c *sshtest.Client, s string) string {
	t.Helper()
	screen, err := c.WaitForText(waitLong, s)
	if err != nil {
		t.Fatal(err)
	}
	return screen
}

var names atomic.Int64

// title gets a client to the title screen, choosing a fresh name first if
// the server asks for one, and returns the screen.
func title(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	screen, err := c.WaitFor(timeout(t), func(s string) bool {
		return strings.Contains(s, "New game") || strings.Contains(s, "Choose the name")
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(screen, "Choose the name") {
		c.Send("\x15" + fmt.Sprintf("player%d", names.Add(1)) + "\r") // ctrl+u clears the suggestion
		screen = waitText(t, c, "New game")
	}
	return screen
}

// newGame chooses New game on the title screen and returns the first frame.
func newGame(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	title(t, c)
	c.Send("n")
	return waitText(t, c, "Turn: 0")
}

// turn reads the turn counter off the status line, or "".
func turn(screen string) string {
	if n := sshtest.Turn(screen); n >= 0 {
		return strconv.Itoa(n)
	}
	return ""
}

// around returns the 5x5 block of the screen centred on the '@'.
func around(t *testing.T, screen string) string {
	t.Helper()
	a := sshtest.Around(screen)
	if a == "" {
		t.Fatalf("no @ on screen:\n%s", screen)
	}
	return a
}

// walk presses movement keys until the turn counter has advanced n times.
func walk(t *testing.T, c *sshtest.Client, n int) string {
	t.Helper()
	screen := c.Screen()
	keys := []string{"l", "j", "h", "k", "y", "u", "b", "n"}
	for i := 0; turn(screen) != "" && atoi(turn(screen)) < n && i < 200; i++ {
		before := turn(screen)
		c.Send(keys[i%len(keys)])
		s, err := c.WaitFor(timeout(t), func(s string) bool {
			return turn(s) != before || strings.Contains(s, "blocked") || strings.Contains(s, "You died")
		})
		if err != nil {
			t.Fatal(err)
		}
		screen = s
		if turn(s) == before && strings.Contains(s, "blocked") {
			// The note stays up until something replaces it: replace it
			// with a marker's, so that the next wait sees the next key's
			// effect, not this one's.
			screen = markKey(t, c, "Z", nil)
		}
	}
	if atoi(turn(screen)) < n {
		t.Fatalf("could not play %d turns:\n%s", n, screen)
	}
	return screen
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func TestPlayerMovesLeavesAndResumesAtTheSameTurnAndPlace(t *testing.T) {
	srv, addr := startServer(t)
	key := newKey(t)

	c := dial(t, addr, key, 100, 30)
	screen := newGame(t, c)
	if !strings.Contains(screen, "HP: 30/30") || !strings.Contains(screen, "Depth: 1") {
		t.Fatalf("status line missing:\n%s", screen)
	}
	screen = walk(t, c, 3)
	wantTurn, wantAround := turn(screen), around(t, screen)
	c.Close() // an abrupt disconnect, not S

	// The save lands as the session unwinds.
	fp := keys.Fingerprint(key.PublicKey())
	var err error
	if !await.Within(waitLong, func() bool {
		var blob []byte
		if blob, err = srv.Store().Save(fp); err != nil {
			return false
		}
		g, err := game.Decode(blob, content.Default())
		return err == nil && g.Turn() == atoi(wantTurn)
	}) {
		t.Fatalf("no save at turn %s after disconnect (err %v)", wantTurn, err)
	}

	c2 := dial(t, addr, key, 100, 30)
	screen = waitText(t, c2, "Continue")
	if !strings.Contains(screen, "turn "+wantTurn) {
		t.Errorf("title does not describe the save at turn %s:\n%s", wantTurn, screen)
	}
	c2.Send("\r") // Continue is selected when a save exists
	screen = waitText(t, c2, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("resumed elsewhere; before:\n%s\nafter:\n%s", wantAround, got)
	}
}

func TestTwoKeysPlayTwoSeparateGames(t *testing.T) {
	_, addr := startServer(t)
	a := dial(t, addr, newKey(t), 100, 30)
	newGame(t, a)
	walk(t, a, 2)

	b := dial(t, addr, newKey(t), 100, 30)
	screen := title(t, b)
	if strings.Contains(screen, "Continue") {
		t.Fatalf("a second key sees a saved game:\n%s", screen)
	}
	b.Send("\r")
	waitText(t, b, "Turn: 0")
	if !strings.Contains(a.Screen(), "Turn: 2") {
		t.Errorf("the first player's game changed:\n%s", a.Screen())
	}
}

func TestClientWithoutPTYIsToldToUseSSHT(t *testing.T) {
	_, addr := startServer(t)
	out, status := command(t, addr, "") // a shell without a terminal, as ssh -T asks
	if !strings.Contains(out, "ssh -t") {
		t.Errorf("output %q does not tell the player to use ssh -t", out)
	}
	if status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
}

func TestResizeReachesTheGame(t *testing.T) {
	_, addr := startServer(t)
	c := dial(t, addr, newKey(t), 100, 30)
	newGame(t, c)
	c.Resize(30, 10)
	waitText(t, c, "enlarge")
	c.Resize(80, 24)
	screen := waitText(t, c, "Turn: 0")
	if !strings.Contains(screen, "@") {
		t.Errorf("no map after growing the terminal back:\n%s", screen)
	}
}

func TestSaveAndLeaveWithS(t *testing.T) {
	srv, addr := startServer(t)
	key := newKey(t)
	c := dial(t, addr, key, 80, 24)
	newGame(t, c)
	walk(t, c, 1)
	c.Send("S")
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatal("S did not end the session")
	}
	if !strings.Contains(string(c.Output()), "Your game is saved") {
		t.Error("no goodbye message after S")
	}
	if _, err := srv.Store().Save(keys.Fingerprint(key.PublicKey())); err != nil {
		t.Errorf("no save after S: %v", err)
	}
}

func TestShutdownSavesEveryGameAndTellsEachPlayer(t *testing.T) {
	srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), Logger: log.New(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	srv.Listen()
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	addr := srv.Addr().String()

	var clients []*sshtest.Client
	var fps []string
	for range 3 {
		k := newKey(t)
		c := dial(t, addr, k, 80, 24)
		newGame(t, c)
		walk(t, c, 1)
		clients = append(clients, c)
		fps = append(fps, keys.Fingerprint(k.PublicKey()))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := recv(t, "Serve to return after Shutdown", served); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	// The server cannot know whether it will be started again (systemd's
	// stop and restart look the same from inside), so what each player
	// reads must be true either way: shutting down, saved, come back
	// later; never "restarting" or "in a moment".
	for i, c := range clients {
		out := ended(t, c)
		if !strings.Contains(out, "The server is shutting down. Your game is saved; come back with the same key to carry on.") {
			t.Errorf("player %d was not told the server is shutting down and the game saved: %q", i, out)
		}
		if strings.Contains(out, "restarting") || strings.Contains(out, "in a moment") {
			t.Errorf("player %d was promised a restart the server cannot know of: %q", i, out)
		}
	}
	// The store is closed; reopen the file and check every game is there.
	st, err := bolt.Open(srv.cfg.DataDir+"/"+DBFile, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, fp := range fps {
		blob, err := st.Save(fp)
		if err != nil {
			t.Fatalf("player %d: %v", i, err)
		}
		if g, err := game.Decode(blob, content.Default()); err != nil || g.Turn() < 1 {
			t.Errorf("player %d: save %v at turn %d", i, err, g.Turn())
		}
	}
}

func TestHostKeyIsCreatedOnceAndReused(t *testing.T) {
	dir := t.TempDir()
	fingerprint := func() string {
		srv, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: dir, Logger: log.New(io.Discard)})
		if err != nil {
			t.Fatal(err)
		}
		srv.Listen()
		go srv.Serve()
		defer srv.Shutdown(context.Background())
		var got string
		cfg := &gossh.ClientConfig{
			User: "x",
			Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
			HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
				got = k.Type() + " " + keys.Fingerprint(k)
				return nil
			},
		}
		conn, err := gossh.Dial("tcp", srv.Addr().String(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		conn.Close()
		return got
	}
	first, second := fingerprint(), fingerprint()
	if !strings.HasPrefix(first, "ssh-ed25519 ") {
		t.Errorf("host key %q, want ed25519", first)
	}
	if first != second {
		t.Errorf("host key changed across restarts: %s then %s", first, second)
	}
}

func TestPasswordAndKeyboardInteractiveAreRefused(t *testing.T) {
	_, addr := startServer(t)
	for name, auth := range map[string]gossh.AuthMethod{
		"password": gossh.Password("hunter2"),
		"keyboard-interactive": gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return []string{"hunter2"}, nil
		}),
	} {
		cfg := &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{auth}, HostKeyCallback: gossh.InsecureIgnoreHostKey()}
		if conn, err := gossh.Dial("tcp", addr, cfg); err == nil {
			conn.Close()
			t.Errorf("%s login was accepted", name)
		}
	}
}

func TestTakingOverKeepsTheTurnAndPlaceAndTellsTheOldSession(t *testing.T) {
	_, addr := startServer(t)
	key := newKey(t)
	a := dial(t, addr, key, 100, 30)
	newGame(t, a)
	screen := walk(t, a, 3)
	wantTurn, wantAround := turn(screen), around(t, screen)

	b := dial(t, addr, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("t")
	screen = waitText(t, b, "Turn: "+wantTurn)
	if got := around(t, screen); got != wantAround {
		t.Errorf("taken over elsewhere; before:\n%s\nafter:\n%s", wantAround, got)
	}
	select {
	case <-a.Done():
	case <-time.After(waitLong):
		t.Fatal("the old session is still open")
	}
	if out := string(a.Output()); !strings.Contains(out, "took over") {
		t.Errorf("the old session was not told why it closed")
	}
	// The turn goes on from there, once.
	walk(t, b, atoi(wantTurn)+1)
}

func TestAWatcherSeesThePlayerMove(t *testing.T) {
	_, addr := startServer(t)
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)

	watcher := dial(t, addr, newKey(t), 80, 24)
	title(t, watcher)
	watcher.Send("w")
	waitText(t, watcher, "Playing now")
	watcher.Send("\r")
	waitText(t, watcher, "Watching")
	waitText(t, player, "watched by 1")

	screen := walk(t, player, 2)
	want := turn(screen)
	got := waitText(t, watcher, "Turn: "+want)
	if around(t, got) != around(t, screen) {
		t.Errorf("the watcher's view differs:\nplayer:\n%s\nwatcher:\n%s", around(t, screen), around(t, got))
	}
	// A watcher is read-only: its keys do not move the player. Its q,
	// after them, leaves: once it has, the watcher has taken the keys in;
	// then the player's marker, once played, shows any turn they played.
	watcher.Send("l")
	watcher.Send("j")
	watcher.Send("q")
	waitText(t, watcher, "New game")
	if turn(markKey(t, player, "Z", nil)) != want {
		t.Error("a watcher's keys moved the player")
	}
}

// fireballSeed finds a seed whose first level has a fireball scroll a short
// walk from the start with no monster near the way, and returns it with the
// keys that walk there.
func fireballSeed(t *testing.T) (uint64, []string, string) {
	t.Helper()
	keyOf := map[world.Pos]string{{X: 0, Y: -1}: "k", {X: 0, Y: 1}: "j", {X: -1, Y: 0}: "h", {X: 1, Y: 0}: "l",
		{X: -1, Y: -1}: "y", {X: 1, Y: -1}: "u", {X: -1, Y: 1}: "b", {X: 1, Y: 1}: "n"}
	for seed := uint64(1); seed < 5000; seed++ {
		g := game.New(seed, content.Default())
		w, h := g.Size()
		lvl := world.NewMap(w, h)
		for y := range h {
			for x := range w {
				lvl.Set(world.Pos{X: x, Y: y}, g.Tile(world.Pos{X: x, Y: y}))
			}
		}
		for _, it := range g.Items() {
			if it.Kind != game.FireballScroll {
				continue
			}
			d := world.NewDistanceMap(w, h)
			d.Compute(lvl, it.Pos, 25)
			me := g.Player().Pos
			if d.At(me) == world.Unreached {
				continue
			}
			var keys []string
			safe := true
			for me != it.Pos && safe {
				for _, dir := range world.Directions8 {
					if n := me.Add(dir.X, dir.Y); d.At(n) < d.At(me) {
						me = n
						keys = append(keys, keyOf[dir])
						break
					}
				}
				for _, a := range g.Actors()[1:] {
					if a.Pos.Chebyshev(me) < 14 {
						safe = false
					}
				}
			}
			if safe {
				return seed, keys, g.ItemName(it)
			}
		}
	}
	t.Fatal("no seed with a safe fireball scroll")
	return 0, nil, ""
}

// The scroll starts unidentified: it is named by its label, and read
// unknown it goes off where it would harm the reader (no monster in
// sight: on the player), which teaches it. Aiming with the cursor (a
// throw here) and cancelling costs nothing.
func TestPickUpAFireballReadItAimWithTheCursorAndBurn(t *testing.T) {
	seed, path, name := fireballSeed(t)
	if !strings.HasPrefix(name, "scroll labelled ") {
		t.Fatalf("an unknown fireball scroll is called %q", name)
	}
	_, addr := serve(t, Config{NewSeed: func() uint64 { return seed }})
	c := dial(t, addr, newKey(t), 100, 30)
	newGame(t, c)
	for i, k := range path {
		c.Send(k)
		waitText(t, c, fmt.Sprintf("Turn: %d ", i+1))
	}
	waitText(t, c, "You see a "+name+" here.")
	c.Send("g")
	waitText(t, c, "You picked up the "+name+"!")

	// Aim, then think better of it: Esc costs nothing.
	c.Send("t")
	waitText(t, c, "(a) "+name)
	c.Send("a")
	waitText(t, c, "Throw the "+name+" where?")
	c.Send("\x1b")
	screen, err := c.WaitFor(timeout(t), func(s string) bool { return !strings.Contains(s, " where?") })
	if err != nil {
		t.Fatal(err)
	}
	before := turn(screen)
	if before != fmt.Sprint(len(path)+1) {
		t.Errorf("cancelling the aim cost a turn: turn %s, want %d", before, len(path)+1)
	}

	// Read it unknown: it bursts round the reader and is learned.
	c.Send("i")
	waitText(t, c, "(a) "+name)
	c.Send("a")
	screen = waitText(t, c, "You are engulfed in a fiery explosion, taking 12 damage!")
	if !strings.Contains(screen, "HP: 18/30") || turn(screen) != fmt.Sprint(atoi(before)+1) {
		t.Errorf("after the blast (turn before %s):\n%s", before, screen)
	}
	waitText(t, c, "fireball scroll")
}

// unnamedTwice connects a new key as user alice, which stays on the name
// screen (unnamed), then connects the key again and returns that second
// session on the choice, which says the key is "already connected" (the
// other session has no game open).
func unnamedTwice(t *testing.T, addr string) *sshtest.Client {
	t.Helper()
	key := newKey(t)
	var last *sshtest.Client
	for _, want := range []string{"Choose the name", "already connected"} {
		c, err := sshtest.Dial(addr, key, sshtest.Options{Width: 100, Height: 30, User: "alice"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		waitText(t, c, want)
		last = c
	}
	return last
}

// TestTakingOverAnUnnamedKeyListsNoName: a key that has not chosen a name
// connects as user alice (the name screen suggests it), connects again and
// takes over: `who` must not list alice, a name nobody claimed.
func TestTakingOverAnUnnamedKeyListsNoName(t *testing.T) {
	_, addr := startServer(t)
	b := unnamedTwice(t, addr)
	b.Send("t")
	waitText(t, b, "Choose the name")
	out, status := command(t, addr, "who")
	if status != 0 || strings.Contains(out, "alice") {
		t.Errorf("who lists a name nobody claimed (status %d):\n%s", status, out)
	}
}

// TestWatchingYourOtherSessionFindsItByKey: on the choice (here "already
// connected"), w must watch this key's other session, found by key, not by a
// name: here it is unnamed while the SSH user name is alice (before, it
// said the session had just ended).
func TestWatchingYourOtherSessionFindsItByKey(t *testing.T) {
	_, addr := startServer(t)
	stranger := dial(t, addr, newKey(t), 100, 30) // another unnamed session
	waitText(t, stranger, "Choose the name")
	b := unnamedTwice(t, addr)
	b.Send("w")
	screen := waitText(t, b, "q to stop")
	if strings.Contains(screen, "just ended") {
		t.Errorf("watching the key's own session:\n%s", screen)
	}
}

// A take-over moves a game between two sessions of one key; the game goes
// on, so its watchers stay: they see the new session's moves and are never
// told the player left (they were, before the lobby handed them over).
func TestAWatcherKeepsWatchingThroughATakeOver(t *testing.T) {
	_, addr := startServer(t)
	key := newKey(t)
	a := dial(t, addr, key, 100, 30)
	newGame(t, a)

	watcher := dial(t, addr, newKey(t), 100, 30)
	title(t, watcher)
	watcher.Send("w")
	waitText(t, watcher, "Playing now")
	watcher.Send("\r")
	waitText(t, watcher, "Watching")
	waitText(t, a, "watched by 1")
	before := turn(walk(t, a, 2))
	waitText(t, watcher, "Turn: "+before)

	b := dial(t, addr, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("t")
	waitText(t, b, "Turn: "+before)
	waitText(t, b, "watched by 1")
	screen := walk(t, b, atoi(before)+1)
	want := turn(screen)
	got := waitText(t, watcher, "Turn: "+want)
	if strings.Contains(string(watcher.Output()), "has left") {
		t.Errorf("the watcher was told the player left although the game went on:\n%s", got)
	}
	if around(t, got) != around(t, screen) {
		t.Errorf("after the take-over the watcher's view differs:\nplayer:\n%s\nwatcher:\n%s", around(t, screen), around(t, got))
	}
}
