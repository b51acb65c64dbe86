package server

// Play in the browser over a real server: `ssh host web` prints a link;
// the link sets a cookie once; the play page's WebSocket runs the key's
// session under the rules of an SSH session (the choice screen when the
// key plays elsewhere, the journal, the goodbye line).

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/server/web"
)

var playLink = regexp.MustCompile(`https?://\S+/play/[A-Za-z0-9_-]+`)

// webLinkOf runs `ssh host web` as key and returns the link it prints.
func webLinkOf(t *testing.T, addr string, key gossh.Signer) string {
	t.Helper()
	out, code := commandAs(t, addr, key, "web")
	link := playLink.FindString(out)
	if code != 0 || link == "" {
		t.Fatalf("ssh host web: status %d, no link in:\n%s", code, out)
	}
	return link
}

// noRedirects is an HTTP client that keeps cookies and shows redirects.
func noRedirects(t *testing.T) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: waitLong,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches url and returns the status and body.
func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// page is a play or watch page's WebSocket with the screen it draws.
type page struct {
	ws    *websocket.Conn
	mu    sync.Mutex
	emu   *vt.Emulator
	texts []string // the text messages it was sent (a watch page's chat), as sent
	end   chan struct{}
	err   error // why the connection ended, once end is closed
}

// openPage connects to the WebSocket at path with c's cookies.
func openPage(t *testing.T, c *http.Client, base, path string) *page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, &websocket.DialOptions{HTTPClient: c})
	if err != nil {
		t.Fatal(err)
	}
	p := &page{ws: ws, emu: vt.NewEmulator(100, 30), end: make(chan struct{})}
	go io.Copy(io.Discard, p.emu)
	go func() {
		defer close(p.end)
		for {
			typ, data, err := ws.Read(context.Background())
			if err != nil {
				p.err = err
				return
			}
			p.mu.Lock()
			if typ == websocket.MessageBinary {
				p.emu.Write(data)
			} else {
				p.texts = append(p.texts, string(data))
			}
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() { ws.CloseNow() })
	return p
}

func (p *page) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.emu.String()
}

// waitFor polls the page's screen until it shows want.
func (p *page) waitFor(t *testing.T, want string) string {
	t.Helper()
	var s string
	if !await.Within(waitLong, func() bool {
		s = p.screen()
		return strings.Contains(s, want)
	}) {
		t.Fatalf("the page never showed %q; it shows:\n%s", want, s)
	}
	return s
}

// send types keys on the page, as xterm.js sends them.
func (p *page) send(t *testing.T, keys string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := p.ws.Write(ctx, websocket.MessageBinary, []byte(keys)); err != nil {
		t.Fatal(err)
	}
}

// closed waits for the page's connection to end and returns its close
// status and reason.
func (p *page) closed(t *testing.T) (websocket.StatusCode, string) {
	t.Helper()
	select {
	case <-p.end:
	case <-time.After(waitLong):
		t.Fatalf("the page's connection is still open; it shows:\n%s", p.screen())
	}
	var ce websocket.CloseError
	if !errorsAs(p.err, &ce) {
		return -1, p.err.Error()
	}
	return ce.Code, ce.Reason
}

// walkPage presses movement keys on the page until its turn counter has
// passed from.
func walkPage(t *testing.T, p *page, from int) string {
	t.Helper()
	keys := []string{"l", "j", "h", "k", "y", "u", "b", "n"}
	for i := 0; i < 200; i++ {
		p.send(t, keys[i%len(keys)])
		// A key into a wall plays no turn: after 2 s, the next key.
		var s string
		if await.Within(2*time.Second, func() bool {
			s = p.screen()
			return atoi(turn(s)) > from
		}) {
			return s
		}
	}
	t.Fatalf("the page's turn never passed %d:\n%s", from, p.screen())
	return ""
}

// whoTurn reads name's turn from `ssh host who`.
func whoTurn(t *testing.T, addr, name string) string {
	t.Helper()
	out, _ := command(t, addr, "who")
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == name {
			return f[2]
		}
	}
	return ""
}

func TestABrowserLinkPlaysTheKeysGameUnderTheRulesOfAnSSHSession(t *testing.T) {
	_, addr, base := serveWeb(t)
	key := newKey(t)
	if out, code := commandAs(t, addr, key, "web"); code != 1 || !strings.Contains(out, "Connect once with plain ssh") {
		t.Errorf("ssh host web for a new key: status %d, %q; want 1 and connect once first", code, out)
	}
	player := dial(t, addr, key, 100, 30)
	name := fmt.Sprintf("browser%d", names.Add(1))
	namedGame(t, player, name)
	sshScreen := walk(t, player, 2)

	link := webLinkOf(t, addr, key)
	if !strings.HasPrefix(link, base+"/play/") {
		t.Errorf("the link %s does not begin with the --http address %s", link, base)
	}
	browser := noRedirects(t)
	if code, _ := get(t, browser, link); code != http.StatusSeeOther {
		t.Fatalf("following the link: %d, want 303 to /play", code)
	}
	again := noRedirects(t)
	if code, body := get(t, again, link); code != http.StatusGone || !strings.Contains(body, "used already") {
		t.Errorf("the link a second time: %d %q, want 410 saying it was used", code, body)
	}

	// The key plays over SSH: the browser gets the choice, and takes over.
	p := openPage(t, browser, base, "/play/ws?cols=100&rows=30")
	p.waitFor(t, "already playing")
	p.send(t, "t")
	screen := p.waitFor(t, "Turn: "+turn(sshScreen))
	if around(t, screen) != around(t, sshScreen) {
		t.Errorf("the browser took over elsewhere:\nssh:\n%s\nbrowser:\n%s", around(t, sshScreen), around(t, screen))
	}
	select {
	case <-player.Done():
	case <-time.After(waitLong):
		t.Fatal("the SSH session is still open after the browser took over")
	}

	// A key pressed in the browser plays a turn, which `who` shows.
	screen = walkPage(t, p, atoi(turn(screen)))
	var who string
	if !await.Within(waitLong, func() bool {
		who = whoTurn(t, addr, name)
		return who == turn(screen)
	}) {
		t.Fatalf("who shows %s at turn %q, want %s", name, who, turn(screen))
	}

	// S saves and leaves: the page hears the goodbye; SSH carries on from there.
	p.send(t, "S")
	if code, why := p.closed(t); code != websocket.StatusNormalClosure || !strings.Contains(why, "Your game is saved") {
		t.Errorf("the page closed with %v %q, want 1000 and the goodbye", code, why)
	}
	back := dial(t, addr, key, 100, 30)
	title(t, back)
	back.Send("c")
	if s := waitText(t, back, "Turn: "+turn(screen)); around(t, s) != around(t, screen) {
		t.Errorf("back over SSH, the game is not where the browser left it")
	}
}

func TestAForgedLinkOrNoCookieOnlyWatches(t *testing.T) {
	_, _, base := serveWeb(t)
	c := noRedirects(t)
	forged := make([]byte, 32)
	rand.Read(forged)
	for _, token := range []string{base64.RawURLEncoding.EncodeToString(forged), "abc", strings.Repeat("A", 400)} {
		if code, body := get(t, c, base+"/play/"+token); code != http.StatusForbidden || !strings.Contains(body, "not one this server gave") {
			t.Errorf("/play/%s: %d %q, want 403", token[:min(len(token), 10)], code, body)
		}
	}
	if len(c.Jar.Cookies(mustURL(t, base+"/play"))) != 0 {
		t.Error("a forged link set a cookie")
	}
	p := openPage(t, c, base, "/play/ws?cols=80&rows=24")
	if code, why := p.closed(t); code != websocket.StatusPolicyViolation || !strings.Contains(why, "can only watch") {
		t.Errorf("a play socket without a cookie: %v %q, want 1008 saying it can only watch", code, why)
	}
	// A made-up cookie is no better.
	c.Jar.SetCookies(mustURL(t, base+"/play"), []*http.Cookie{{Name: web.CookieName, Value: base64.RawURLEncoding.EncodeToString(forged)}})
	p = openPage(t, c, base, "/play/ws?cols=80&rows=24")
	if code, why := p.closed(t); code != websocket.StatusPolicyViolation || !strings.Contains(why, "can only watch") {
		t.Errorf("a play socket with a forged cookie: %v %q, want 1008", code, why)
	}
}

func TestABannedKeyCannotRedeemItsLink(t *testing.T) {
	dir := t.TempDir()
	bans := filepath.Join(dir, "banned")
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", BannedKeys: bans, DataDir: filepath.Join(dir, "data")})
	key := newKey(t)
	player := dial(t, addr, key, 100, 30)
	title(t, player)
	player.Send("q")
	ended(t, player)
	link := webLinkOf(t, addr, key)
	if err := os.WriteFile(bans, gossh.MarshalAuthorizedKey(key.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.ReloadBans(); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, noRedirects(t), link); code != http.StatusForbidden || !strings.Contains(body, bannedLine) {
		t.Errorf("a banned key's link: %d %q, want 403 and %q", code, body, bannedLine)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// playingBrowser names key's player over SSH (on the title, then leaves),
// and returns a browser that redeemed the key's link.
func playingBrowser(t *testing.T, addr string, key gossh.Signer) *http.Client {
	t.Helper()
	c := dial(t, addr, key, 100, 30)
	title(t, c)
	c.Send("q")
	ended(t, c)
	b := noRedirects(t)
	if code, _ := get(t, b, webLinkOf(t, addr, key)); code != http.StatusSeeOther {
		t.Fatalf("the link: %d, want 303", code)
	}
	return b
}

func TestABrowserCountsAgainstMaxSessions(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: Limits{MaxSessions: 1, ConnPer10s: 10000}})
	base := "http://" + srv.HTTPAddr().String()
	b := playingBrowser(t, addr, newKey(t))
	player := dial(t, addr, newKey(t), 100, 30)
	title(t, player)
	p := openPage(t, b, base, "/play/ws?cols=100&rows=30")
	if code, why := p.closed(t); code != websocket.StatusPolicyViolation || !strings.Contains(why, "grotto is full (1 session)") {
		t.Errorf("a browser past --max-sessions 1: %v %q, want 1008 and grotto is full", code, why)
	}
	player.Send("q")
	ended(t, player)
	// The client is gone before the server has counted its session out
	// (it saves as it unwinds): wait for that, as a player would retry.
	waitUntil(t, "the server to count the session out", func() bool { return srv.front.guard.Sessions() == 0 })
	p = openPage(t, b, base, "/play/ws?cols=100&rows=30")
	p.waitFor(t, "New game") // the seat is free again
	// Now the browser holds the one seat: an SSH session is refused.
	refused := dial(t, addr, newKey(t), 100, 30)
	waitText(t, refused, "grotto is full")
}

func TestABrowsersKeysPassTheSanitizerAndItsIdlePlayerIsSaved(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: Limits{IdleTimeout: 2 * time.Second, ConnPer10s: 10000}})
	base := "http://" + srv.HTTPAddr().String()
	key := newKey(t)
	p := openPage(t, playingBrowser(t, addr, key), base, "/play/ws?cols=100&rows=30")
	p.waitFor(t, "New game")
	p.send(t, "n")
	p.waitFor(t, "Turn: 0")
	// The CSI that panicked x/ansi's parser (33 parameters; server/input), then a move.
	p.send(t, "\x1b["+strings.Repeat("1;", 40)+"1m")
	screen := walkPage(t, p, 0)
	if code, why := p.closed(t); code != websocket.StatusNormalClosure || !strings.Contains(why, "idle for 2 seconds; your game is saved") {
		t.Errorf("an idle browser: %v %q, want 1000 and the idle goodbye", code, why)
	}
	back := dial(t, addr, key, 100, 30)
	title(t, back)
	back.Send("c")
	waitText(t, back, "Turn: "+turn(screen))
}

func TestALinkFromOneNodeOpensOnAnotherAndTakesTheGameOverFromTheFirst(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	withWeb := func(c *Config) { c.HTTP = "127.0.0.1:0" }
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA, withWeb)
	srvB, _ := serveNode(t, url, "node-b", 0, &logsB, withWeb)
	baseA, baseB := "http://"+srvA.HTTPAddr().String(), "http://"+srvB.HTTPAddr().String()
	key := newKey(t)
	player := dial(t, addrA, key, 100, 30)
	name := fmt.Sprintf("roamer%d", names.Add(1))
	namedGame(t, player, name)
	sshScreen := rest(t, player, 2)

	// Node A issues the link; node B, behind the same address, redeems it.
	link := strings.Replace(webLinkOf(t, addrA, key), baseA, baseB, 1)
	b := noRedirects(t)
	if code, body := get(t, b, link); code != http.StatusSeeOther {
		t.Fatalf("node A's link on node B: %d %q, want 303", code, body)
	}
	if code, _ := get(t, noRedirects(t), strings.Replace(link, baseB, baseA, 1)); code != http.StatusGone {
		t.Errorf("the link back on node A after node B redeemed it: %d, want 410", code)
	}
	p := openPage(t, b, baseB, "/play/ws?cols=100&rows=30")
	p.waitFor(t, "already playing") // the key plays on node A
	p.send(t, "t")
	screen := p.waitFor(t, "Turn: "+turn(sshScreen))
	if around(t, screen) != around(t, sshScreen) {
		t.Errorf("taken over from node A at another place:\nssh:\n%s\nbrowser:\n%s", around(t, sshScreen), around(t, screen))
	}
	if out := ended(t, player); !strings.Contains(out, "took over") {
		t.Errorf("the SSH player on node A reads %q; want to hear the key took the game over", out)
	}
	screen = walkPage(t, p, atoi(turn(screen)))
	var who string
	if !await.Within(waitLong, func() bool {
		who = whoTurn(t, addrA, name)
		return who == turn(screen)
	}) {
		t.Fatalf("who on node A shows %s at turn %q, want %s (the browser's on node B)", name, who, turn(screen))
	}
	for n, logs := range map[string]*lockedBuffer{"A": &logsA, "B": &logsB} {
		if strings.Contains(logs.String(), "fenced") {
			t.Errorf("a write was fenced on node %s:\n%s", n, logs.String())
		}
	}
}

func TestABigPasteInTheBrowserPlaysOnAndAnOversizedMessageIsToldWhy(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", Limits: Limits{ConnPer10s: 10000, InputBytesPerSec: 1 << 20}})
	base := "http://" + srv.HTTPAddr().String()
	b := playingBrowser(t, addr, newKey(t))
	p := openPage(t, b, base, "/play/ws?cols=100&rows=30")
	p.waitFor(t, "New game")
	p.send(t, "n")
	p.waitFor(t, "Turn: 0")
	// 5,000 bytes of a paste, in messages of web.MaxPaste bytes as
	// watch.js splits xterm.js's onData. Z is no command and plays no
	// turn, so the walk's first turn comes after the whole paste has been
	// read (x, exploring, played turns of its own, and the refusal below
	// then waited behind thousands of pasted keys on a busy machine).
	paste := strings.Repeat("Z", 5000)
	for len(paste) > 0 {
		n := min(len(paste), web.MaxPaste)
		p.send(t, paste[:n])
		paste = paste[n:]
	}
	walkPage(t, p, 0) // it plays on
	// One message over the limit is refused in words.
	p.send(t, strings.Repeat("x", web.MaxPlayMessage+1))
	if code, why := p.closed(t); code != websocket.StatusMessageTooBig || !strings.Contains(why, "That paste was too large") {
		t.Errorf("a message over the limit: %v %q, want 1009 and a sentence", code, why)
	}
}

// Behind a balancer the front page is drawn by one node and its links are
// opened on another: a game's watch link, page and WebSocket, names the
// same game on every node. Each node numbers its own sessions from 1, so
// a number that meant ann's game on node A meant bob's on node B (found
// behind HAProxy: 4 of 6 links were 404s, and one opened another
// player's game).
func TestAWatchLinkOpensTheSameGameOnEveryNode(t *testing.T) {
	url := pgtest.NewDatabase(t)
	var logsA, logsB lockedBuffer
	withWeb := func(c *Config) { c.HTTP = "127.0.0.1:0" }
	srvA, addrA := serveNode(t, url, "node-a", 0, &logsA, withWeb)
	srvB, addrB := serveNode(t, url, "node-b", 0, &logsB, withWeb)
	bases := []string{"http://" + srvA.HTTPAddr().String(), "http://" + srvB.HTTPAddr().String()}
	// ann plays on node A at turn 2, bob on node B at turn 5.
	turns := map[string]int{}
	var annKey gossh.Signer
	var ann string
	for i, addr := range []string{addrA, addrB} {
		name := fmt.Sprintf("%s%d", []string{"ann", "bob"}[i], names.Add(1))
		key := newKey(t)
		if i == 0 {
			annKey, ann = key, name
		}
		c := dial(t, addr, key, 100, 30)
		namedGame(t, c, name)
		turns[name] = 2 + 3*i
		rest(t, c, turns[name])
	}
	for _, page := range bases {
		var links map[string]string
		if !await.Within(waitLong, func() bool {
			links, _ = webGames(t, page)
			return len(links) == 2
		}) {
			t.Fatalf("%s lists %v, want both games", page, links)
		}
		for name, link := range links {
			for _, open := range bases {
				code, body := get(t, http.DefaultClient, open+link)
				if code != http.StatusOK || !strings.Contains(body, "watching <strong>"+name+"</strong>") {
					t.Errorf("%s's link %s from %s, opened on %s: %d, want %s's watch page", name, link, page, open, code, name)
					continue
				}
				p := openPage(t, http.DefaultClient, open, link+"/ws?cols=100&rows=30")
				p.waitFor(t, fmt.Sprintf("Turn: %d", turns[name]))
				p.ws.CloseNow()
			}
		}
	}
	// ann's game moves to node B (her key takes it over there): the link
	// the front page gave for it before still opens it, on either node
	// (found: a link named the node, and died with every move).
	links, _ := webGames(t, bases[0])
	before := links[ann]
	c := dial(t, addrB, annKey, 100, 30)
	waitText(t, c, "already playing")
	c.Send("t")
	waitText(t, c, fmt.Sprintf("Turn: %d", turns[ann]))
	for _, open := range bases {
		var code int
		var body string
		if !await.Within(waitLong, func() bool {
			code, body = get(t, http.DefaultClient, open+before)
			return code == http.StatusOK && strings.Contains(body, "watching <strong>"+ann+"</strong>")
		}) {
			t.Errorf("ann's link %s after her game moved to node B, opened on %s: %d, want her watch page", before, open, code)
		}
	}
}
