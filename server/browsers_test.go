package server

import (
	"testing"

	"github.com/coder/websocket"
)

// TestTheBrowserCountForgetsAKeyWhoseBrowsersHaveLeft: a key that played
// in a browser leaves no entry behind once its sessions end, so the count
// does not grow with every key that ever played in one.
func TestTheBrowserCountForgetsAKeyWhoseBrowsersHaveLeft(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0"})
	base := "http://" + srv.HTTPAddr().String()
	for range 2 {
		b := playingBrowser(t, addr, newKey(t))
		p := openPage(t, b, base, "/play/ws?cols=100&rows=30")
		p.waitFor(t, "New game")
		if !srv.browserPlaying() {
			t.Fatal("a browser plays, but the server counts none")
		}
		p.ws.Close(websocket.StatusNormalClosure, "")
	}
	waitUntil(t, "the server to count the sessions out", func() bool { return srv.front.guard.Sessions() == 0 })
	if n := srv.browserKeys(); n != 0 {
		t.Errorf("after every browser left, the server still keeps %d keys' browser counts, want none", n)
	}
}

// browserKeys is how many keys the server keeps a browser count for.
func (s *Server) browserKeys() int {
	s.web.browsers.mu.Lock()
	defer s.web.browsers.mu.Unlock()
	return len(s.web.browsers.n)
}

// browserPlaying says whether the server counts a browser playing.
func (s *Server) browserPlaying() bool {
	s.web.browsers.mu.Lock()
	defer s.web.browsers.mu.Unlock()
	for _, n := range s.web.browsers.n {
		if n > 0 {
			return true
		}
	}
	return false
}
