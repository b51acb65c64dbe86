package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// serveWeb runs a real server with --http on a free loopback port and
// returns it with its SSH address and its web pages' base URL.
func serveWeb(t *testing.T) (*Server, string, string) {
	t.Helper()
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0"})
	return srv, addr, "http://" + srv.HTTPAddr().String()
}

var watchLink = regexp.MustCompile(`<td>(?:<a href="/player/[^"]*">)?([^<]*)(?:</a>)?</td><td class="n">(\d+)</td><td class="n">(\d+)</td>.*?href="(/watch/\d+)"`)

// webGames reads the front page's live games: name → watch link, and
// name → turn.
func webGames(t testing.TB, base string) (links, turns map[string]string) {
	t.Helper()
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	links, turns = map[string]string{}, map[string]string{}
	for _, m := range watchLink.FindAllStringSubmatch(string(body), -1) {
		links[m[1]], turns[m[1]] = m[4], m[3]
	}
	return links, turns
}

// namedGame names a new key name (the play screen does not show it) and
// starts a game.
func namedGame(t *testing.T, c *sshtest.Client, name string) {
	t.Helper()
	screen, err := c.WaitFor(timeout(t), func(s string) bool {
		return strings.Contains(s, "New game") || strings.Contains(s, "Choose the name")
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(screen, "Choose the name") {
		c.Send("\x15" + name + "\r")
		waitText(t, c, "New game")
	}
	c.Send("n")
	waitText(t, c, "Turn: 0")
}

func TestTheWebWatchStreamFollowsAnSSHPlayer(t *testing.T) {
	_, addr, base := serveWeb(t)
	player := dial(t, addr, newKey(t), 100, 30)
	name := fmt.Sprintf("webby%d", names.Add(1))
	namedGame(t, player, name)

	links, turns := webGames(t, base)
	if links[name] == "" || turns[name] != "0" {
		t.Fatalf("the front page does not list %s at turn 0: %v %v", name, links, turns)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+links[name]+"/ws?cols=80&rows=24", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	emu := vt.NewEmulator(80, 24)
	go io.Copy(io.Discard, emu)
	read := func(want string) string {
		t.Helper()
		for {
			typ, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("waiting for %q: %v; the page shows:\n%s", want, err, emu.String())
			}
			if typ == websocket.MessageBinary {
				emu.Write(data)
			}
			if s := emu.String(); strings.Contains(s, want) {
				return s
			}
		}
	}
	read("Watching " + name)
	waitText(t, player, "watched by 1") // the page counts as a watcher
	screen := walk(t, player, 3)
	got := read("Turn: " + turn(screen))
	if around(t, got) != around(t, screen) {
		t.Errorf("the page's view differs:\nplayer:\n%s\npage:\n%s", around(t, screen), around(t, got))
	}
	if _, turns := webGames(t, base); turns[name] != turn(screen) {
		t.Errorf("the front page shows turn %s, want %s", turns[name], turn(screen))
	}

	player.Send("S") // save and leave: the page hears the game end
	for {
		_, _, err := ws.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
				t.Errorf("the page closed with %v, want 1000 The game has ended.", err)
			}
			break
		}
	}
}
