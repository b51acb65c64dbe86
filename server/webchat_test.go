package server

// The chat of a live game on its watch page, over a real server: the page
// reads the chat from its watch WebSocket's text messages and, when its
// browser is tied to a key (`ssh host web`), says lines there.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
)

// chatSaid reports whether p was sent a chat message whose JSON holds
// want (as sent, escapes and all).
func (p *page) chatSaid(want string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.texts {
		if strings.HasPrefix(m, `{"chat":`) && strings.Contains(m, want) {
			return true
		}
	}
	return false
}

// waitChat waits until p was sent a chat message holding want.
func (p *page) waitChat(t *testing.T, want string) {
	t.Helper()
	if !await.Within(waitLong, func() bool { return p.chatSaid(want) }) {
		p.mu.Lock()
		defer p.mu.Unlock()
		t.Fatalf("the page was never sent a chat message holding %q; it was sent:\n%s", want, strings.Join(p.texts, "\n"))
	}
}

// sayOnPage sends text as the page's chat line, as watch.js does.
func (p *page) sayOnPage(t *testing.T, text string) {
	t.Helper()
	msg, _ := json.Marshal(map[string]string{"say": text})
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if err := p.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
}

// namedBrowser names key name over SSH (then leaves) and returns a
// browser that redeemed the key's `ssh host web` link.
func namedBrowser(t *testing.T, addr string, key gossh.Signer, name string) *http.Client {
	t.Helper()
	c := dial(t, addr, key, 100, 30)
	waitText(t, c, "Choose the name")
	c.Send("\x15" + name + "\r")
	waitText(t, c, "New game")
	c.Send("q")
	ended(t, c)
	b := noRedirects(t)
	if code, _ := get(t, b, webLinkOf(t, addr, key)); code != http.StatusSeeOther {
		t.Fatalf("the link: %d, want 303", code)
	}
	return b
}

// TestTwoSSHPlayersAndABrowserWatcherChat: an SSH player, an SSH watcher
// of its game, and two watch pages: one whose browser is tied to a named
// key, one tied to none. The tied page's line reaches the player's screen
// (without a key), the SSH watcher's and both pages; the SSH watcher's
// line reaches the pages; the untied page is told how to talk and its
// line is not taken (the page is closed as one that sent what grotto does
// not understand); markup and
// escape bytes from either side arrive as text; a flood from the page is
// refused past its burst, and the page told why.
func TestTwoSSHPlayersAndABrowserWatcherChat(t *testing.T) {
	_, addr, base := serveWeb(t)
	n := names.Add(1)
	pname, wname, bname := fmt.Sprintf("webchatp%d", n), fmt.Sprintf("webchatw%d", n), fmt.Sprintf("webchatb%d", n)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)
	w := watchNamed(t, addr, wname)
	browser := namedBrowser(t, addr, newKey(t), bname)

	var link string
	await.Until(t, waitLong, "the game on the front page", func() bool {
		links, _ := webGames(t, base)
		link = links[pname]
		return link != ""
	})
	tied := openPage(t, browser, base, link+"/ws?cols=100&rows=30")
	untied := openPage(t, noRedirects(t), base, link+"/ws?cols=100&rows=30")
	tied.waitChat(t, `"canSay":true`)
	untied.waitChat(t, `"canSay":false`)
	untied.waitChat(t, ` web for a link`) // how to tie the browser to a key: ssh … web

	tied.sayOnPage(t, "hello from the browser <b>bold</b>")
	waitText(t, player, "<"+bname+"> hello from the browser <b>bold</b>") // no key pressed by the player
	waitText(t, w, "<"+bname+"> hello from the browser")
	untied.waitChat(t, `hello from the browser \u003cb\u003ebold`) // JSON-escaped, shown as text
	tied.waitChat(t, `"name":"`+bname+`"`)

	say(w, "esc\x1b[31mred")
	tied.waitChat(t, `"name":"`+wname+`","text":"esc`)
	tied.mu.Lock()
	for _, m := range tied.texts {
		if strings.Contains(m, `\u001b`) || strings.Contains(m, "\x1b") {
			t.Errorf("an escape byte reached the page's chat: %q", m)
		}
	}
	tied.mu.Unlock()

	// A page tied to no key cannot talk: its line is not read as one.
	untied.sayOnPage(t, "anonymous line")
	if code, _ := untied.closed(t); code != websocket.StatusUnsupportedData {
		t.Errorf("an untied page's line closed it with %d, want 1003 (not understood)", code)
	}
	if strings.Contains(player.Screen(), "anonymous line") {
		t.Errorf("an untied page's line reached the player:\n%s", player.Screen())
	}

	// The tied page's flood is refused past its burst, and told why.
	for i := range 6 {
		tied.sayOnPage(t, fmt.Sprintf("flood %d", i))
	}
	tied.waitChat(t, `"said":"slow down`)
}

// TestABrowserTiedToAKeyChatsOnTheWatchPage: in Chromium, a browser that
// followed its key's link opens the watch page of an SSH player's game;
// a line typed in its chat box reaches the player's screen, and an SSH
// watcher's line with markup shows in the page's chat as text.
func TestABrowserTiedToAKeyChatsOnTheWatchPage(t *testing.T) {
	ctx, _ := browser(t)
	_, addr, base := serveWeb(t)
	n := names.Add(1)
	pname, wname, bname := fmt.Sprintf("pagechatp%d", n), fmt.Sprintf("pagechatw%d", n), fmt.Sprintf("pagechatb%d", n)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)
	w := watchNamed(t, addr, wname)
	key := newKey(t)
	c := dial(t, addr, key, 100, 30)
	waitText(t, c, "Choose the name")
	c.Send("\x15" + bname + "\r")
	waitText(t, c, "New game")
	c.Send("q")
	ended(t, c)

	var link string
	await.Until(t, waitLong, "the game on the front page", func() bool {
		links, _ := webGames(t, base)
		link = links[pname]
		return link != ""
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(webLinkOf(t, addr, key)), chromedp.Navigate(base+link)); err != nil {
		t.Fatal(err)
	}
	readTerm(t, ctx, "Turn: ")
	await.Until(t, waitLong, "the chat box", func() bool {
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.getElementById('chat-form').hidden`))
		return err == nil && shown
	})
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  document.getElementById('chat-text').value = 'typed in chromium';
  document.getElementById('chat-form').requestSubmit();
  return true;
})()`)); err != nil {
		t.Fatal(err)
	}
	waitText(t, player, "<"+bname+"> typed in chromium")

	say(w, "<img src=x onerror=alert(1)> hi")
	var lines string
	if !await.Within(waitLong, func() bool {
		lines, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('chat-lines').textContent`))
		return strings.Contains(lines, "<"+wname+"> <img src=x onerror=alert(1)> hi")
	}) {
		t.Fatalf("the page's chat never showed the watcher's line as text; it shows %q", lines)
	}
	if imgs, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#chat-lines img').length`)); imgs != 0 {
		t.Errorf("a watcher's markup became %d elements on the page", imgs)
	}
}

// TestAWatchPageIsToldAtOnceThatThePlayerMutedItsWatchers: the player
// mutes its watchers in Settings; a watch page reads it without a line
// being said (a community tester's page learned it only when its next
// line was refused), and reads it lifted again.
func TestAWatchPageIsToldAtOnceThatThePlayerMutedItsWatchers(t *testing.T) {
	_, addr, base := serveWeb(t)
	pname := fmt.Sprintf("webmutep%d", names.Add(1))
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)
	var link string
	await.Until(t, waitLong, "the game on the front page", func() bool {
		links, _ := webGames(t, base)
		link = links[pname]
		return link != ""
	})
	p := openPage(t, noRedirects(t), base, link+"/ws?cols=100&rows=30")
	p.waitChat(t, `"muted":false`)

	player.Send("O")
	waitText(t, player, "Settings")
	player.Send("jjj\r") // the fourth row: this game's watchers
	waitText(t, player, "Only for this game")
	p.waitChat(t, `"muted":true`)
	player.Send("\r")
	await.Until(t, waitLong, "the mute lifted on the page", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		last := ""
		for _, m := range p.texts {
			if strings.Contains(m, `"muted":`) {
				last = m
			}
		}
		return strings.Contains(last, `"muted":false`)
	})
}
