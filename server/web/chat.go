package web

// This file: a live game's chat on its watch page (issue 25). The chat
// travels on the page's watch WebSocket (watch.go) beside the frames, as
// text messages: the server sends {"chat":{…}} (chatMessage: the newest
// lines, whether this page may talk and, when it may not, how to; whether
// the player muted its watchers; why a line was refused), JSON-escaped, which the page shows as text, never as
// HTML or terminal output. A page whose browser is tied to a key (the
// play cookie of an `ssh host web` link, tokens.go) says lines as
// {"say":"…"}; one tied to no key, or to a banned one, only reads. Bounds:
// a line is a message of at most MaxMessage bytes; the page's lines are
// read at most SaysPerSec (a flood waits: the page is read no faster); the
// chat's own bounds (the lobby's: length, each key's rate, the game's
// rate, the admins' mute) refuse the rest, said to the page; the page is
// sent at most one update per ChatUpdateEvery, the last ChatPageLines
// lines.

import (
	"encoding/json"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/grotto-game/grotto/game/tui"
)

// Chats opens live games' chats for the watch pages.
type Chats interface {
	// Chat opens the chat of live game id (a tui.LiveGame.ID) for key fp,
	// "" for a page tied to no key (it reads only). ok is false when the
	// game has no chat this page may read (it ended, or is hidden).
	Chat(id uint64, fp string) (room tui.ChatRoom, ok bool)
}

// Bounds of a watch page's chat.
const (
	// ChatPageLines is how many of the newest lines a page is sent.
	ChatPageLines = 20
	// ChatUpdateEvery is the shortest time between two updates sent to
	// one page: a busy chat's lines come together, a few a second.
	ChatUpdateEvery = 250 * time.Millisecond
	// SaysPerSec and SayBurst pace the lines a page sends: past them the
	// page is read no faster (the chat's own rate, a line a second after
	// three, refuses lines sooner, with a reason).
	SaysPerSec = 2
	SayBurst   = 5
)

// chatLine is one line as a page gets it.
type chatLine struct {
	Name   string `json:"name"`
	Text   string `json:"text"`
	Player bool   `json:"player,omitempty"`
}

// chatMessage is a chat update sent to a watch page as {"chat": …}; each
// field is left out when it does not change.
type chatMessage struct {
	// Lines are the newest lines, oldest first (at most ChatPageLines).
	Lines []chatLine `json:"lines,omitempty"`
	// CanSay, in the first message, is whether the page may talk.
	CanSay *bool `json:"canSay,omitempty"`
	// Hint, in the first message of a page that may not talk, says how
	// to (or why not).
	Hint string `json:"hint,omitempty"`
	// Said is why the page's last line was refused.
	Said string `json:"said,omitempty"`
	// Muted, in the first message and whenever it changes, is whether the
	// player has muted the game's watchers (tui.ChatRoom.WatchersMuted):
	// the page says so before a line is typed, not only on refusing one.
	Muted *bool `json:"muted,omitempty"`
}

// chatSpeaker returns the key a watch page's request is tied to and may
// talk as (the play cookie, tokens.go), or "" and what the page reads
// instead: how to tie the browser to a key, or why the key may not talk.
func (s *Server) chatSpeaker(r *http.Request) (fp, hint string) {
	if s.cfg.Tokens == nil {
		return "", "This server does not tie browsers to keys: chat over SSH."
	}
	if _, err := r.Cookie(CookieName); err != nil {
		return "", "To chat, run " + s.sshWeb() + " for a link that ties this browser to your key, then reload this page."
	}
	fp, err := s.sessionKey(r)
	if err != nil {
		return "", err.Error()
	}
	if s.cfg.Players != nil {
		if why := s.cfg.Players.Admit(fp); why != nil {
			return "", why.Error()
		}
	}
	return fp, ""
}

// openChat opens game id's chat on the page of b, as key fp when it may
// talk (fp not ""; hint is what a page that may not talk reads): it takes
// the page's lines (b.onSay, before the page is read) and sends the
// page the chat's lines until b closes. Without a chat (none, or Config.Chats
// nil) the page gets no chat message.
func (s *Server) openChat(b *bridge, id uint64, fp, hint string) {
	if s.cfg.Chats == nil {
		return
	}
	room, ok := s.cfg.Chats.Chat(id, fp)
	if !ok {
		return
	}
	send := func(m chatMessage) bool {
		msg, err := json.Marshal(map[string]chatMessage{"chat": m})
		return err == nil && b.sendText(msg) == nil
	}
	canSay := fp != ""
	if canSay {
		says := rate.NewLimiter(SaysPerSec, SayBurst)
		b.onSay = func(text string) bool {
			if err := room.Say(text); err != nil {
				send(chatMessage{Said: err.Error()})
			}
			return says.Wait(b.ctx) == nil
		}
	}
	go func() {
		defer room.Close()
		muted := room.WatchersMuted()
		if !send(chatMessage{Lines: pageLines(room.Lines()), CanSay: &canSay, Hint: hint, Muted: &muted}) {
			return
		}
		changed := room.Changed()
		for {
			select {
			case <-b.ctx.Done():
				return
			case _, open := <-changed:
				if !open {
					return
				}
				m := chatMessage{Lines: pageLines(room.Lines())}
				if now := room.WatchersMuted(); now != muted {
					muted = now
					m.Muted = &now
				}
				if !send(m) {
					return
				}
			}
			select { // a busy chat's lines come together
			case <-b.ctx.Done():
				return
			case <-time.After(ChatUpdateEvery):
			}
		}
	}()
}

// pageLines is the newest ChatPageLines of lines as a page gets them,
// made inert again (tui.Inert) however the room kept them.
func pageLines(lines []tui.ChatLine) []chatLine {
	lines = lines[max(0, len(lines)-ChatPageLines):]
	out := make([]chatLine, len(lines))
	for i, l := range lines {
		out[i] = chatLine{Name: tui.Inert(l.Name), Text: tui.Inert(l.Text), Player: l.Player}
	}
	return out
}
