package server

// This file: the chat of a live game as a session sees it (tui.ChatRoom on
// server/lobby's Chat, issue 25): who speaks (the key and its stored
// name), an admin's mute (kept in the store, `ssh host mute`), and which
// game's chat a session may open (its own as its key's player; a game it
// may watch, as a watcher).

import (
	"errors"
	"sync"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/lobby"
)

// errMutedKey is what a key muted by an admin reads when it speaks.
var errMutedKey = errors.New("an admin has muted this key in the chat")

// speaker is who says a room's lines: a key and its stored name, kept
// once found so that a flood costs no store read, and looked up again
// while the key has none, so that a name claimed since counts.
type speaker struct {
	srv *Server
	fp  string // the key

	mu    sync.Mutex
	known string // the key's stored name, "" until it has one
}

// newSpeaker is key fp as a room's speaker, its name looked up now.
func (s *Server) newSpeaker(fp string) speaker {
	return speaker{srv: s, fp: fp, known: s.nameOf(fp)}
}

// name returns the speaker's stored name, "" while it has none.
func (p *speaker) name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.known == "" {
		p.known = p.srv.nameOf(p.fp)
	}
	return p.known
}

// chatRoom is one session's view of a game's chat on this node.
type chatRoom struct {
	speaker
	c       *lobby.Chat
	changed <-chan struct{}
	stop    func()
}

var _ tui.ChatRoom = (*chatRoom)(nil)

// newChatRoom opens c for key fp.
func (s *Server) newChatRoom(c *lobby.Chat, fp string) *chatRoom {
	ch, stop := c.Listen()
	return &chatRoom{speaker: s.newSpeaker(fp), c: c, changed: ch, stop: stop}
}

// nameOf returns the name key fp's stored profile holds, "" for none or
// when it cannot be read.
func (s *Server) nameOf(fp string) string {
	if p, err := s.store.Profile(fp); err == nil && tui.ValidName(p.Name) {
		return p.Name
	}
	return ""
}

// chatLines is how the UI shows lobby lines.
func chatLines(in []lobby.ChatLine) []tui.ChatLine {
	out := make([]tui.ChatLine, len(in))
	for i, l := range in {
		out[i] = tui.ChatLine{Name: l.Name, Text: l.Text, Player: l.Player}
	}
	return out
}

// Lines implements tui.ChatRoom.
func (r *chatRoom) Lines() []tui.ChatLine { return chatLines(r.c.Lines()) }

// Changed implements tui.ChatRoom.
func (r *chatRoom) Changed() <-chan struct{} { return r.changed }

// Say implements tui.ChatRoom: the lobby's bounds first (so a flood costs
// no store read), then the admins' mute, then the line (Server.say).
func (r *chatRoom) Say(text string) error {
	return r.srv.say(r.c, r.fp, r.name(), text)
}

// say says text in chat c as key fp under its name, unless the chat
// refuses it now (its bounds: no store read for a flood) or an admin muted
// fp.
//
// The line goes under the name the store holds now, not the one the room
// was opened with: after an admin's rename the old name is free, and
// another key that took it must not read as this one (a community tester
// chatted as "carol" after carol was renamed).
func (s *Server) say(c *lobby.Chat, fp, name, text string) error {
	if err := c.Allow(fp, name); err != nil {
		return err
	}
	if s.chatMuted(fp) {
		return errMutedKey
	}
	if now := s.nameOf(fp); now != "" {
		name = now
	}
	_, err := c.Say(fp, name, text)
	if err == nil {
		s.place.live.TouchKey(fp) // a watcher who talks is not idle (`who`)
	}
	return err
}

// chatMuted reports whether an admin muted fp (`ssh host mute`); a store
// that cannot say lets the line through, logged, as a ban read does.
func (s *Server) chatMuted(fp string) bool {
	_, muted, err := s.store.Muted(fp)
	if err != nil {
		s.log.Warn("could not read whether a key is muted; let it talk", "fp", fp, "err", err)
	}
	return muted
}

// MuteWatchers implements tui.ChatRoom: only the game's own player's
// room mutes its watchers.
func (r *chatRoom) MuteWatchers(on bool) {
	if r.c.Owner() == r.fp {
		r.c.MuteWatchers(on)
	}
}

// WatchersMuted implements tui.ChatRoom.
func (r *chatRoom) WatchersMuted() bool { return r.c.WatchersMuted() }

// Close implements tui.ChatRoom.
func (r *chatRoom) Close() { r.stop() }

// Chat implements tui.Lobby: id 0 is the session's own game, once it is
// its key's player here; another id is a game the session may watch
// (Server.watcherChat: on a cluster, of any node).
func (l *sessionLobby) Chat(id uint64) (tui.ChatRoom, bool) {
	if id != 0 {
		return l.srv.watcherChat(id, l.fp)
	}
	s := l.held()
	if s == nil || !s.Player() {
		return nil, false
	}
	c, ok := l.srv.place.live.ChatOf(l.fp)
	if !ok {
		return nil, false
	}
	return l.srv.newChatRoom(c, l.fp), true
}
