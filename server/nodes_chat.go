package server

// This file: a live game's chat across the nodes of a cluster (issue 25;
// the chat itself is server/lobby's Chat, a session's view of it
// chat.go). A watcher on node B of a game on node A reads the chat as a
// stream from A over the node channel (cluster.Client.Chat, GET /v1/chat)
// and says lines there (cluster.Client.Say, POST /v1/say). B checks the
// speaker first (its key's stored name, the admins' mute, a rate of its
// own, so that a flood costs no call); A checks the chat's bounds and the
// admins' mute again, since its chat is the one that holds them. Like a
// watch (nodes.watchRemote), a watcher's chat follows its game to the node
// that takes it over. On a cluster every watcher's chat goes this way, a
// game of the watcher's own node included (read from its lobby, no call):
// the game's ID names it on every node (clusterID).

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/server/lobby"
)

// sayTimeout bounds saying one line in a chat on another node: the
// watcher's program waits for it (tui.ChatRoom.Say).
const sayTimeout = 2 * time.Second

// Why a watcher's line did not reach a game's chat on another node, in
// the speaker's words.
var (
	// errChatAway: the game's node did not answer, or the game is moving
	// between nodes.
	errChatAway = errors.New("the game's chat cannot be reached just now; try again")
	// errChatRefused: the game's node refused the line for a reason this
	// node does not know (a node of another version).
	errChatRefused = errors.New("the game's chat refused that line")
)

// chatRefusals are the reasons a chat refuses a line and their codes over
// the node channel (cluster.RefusedError.Reason).
var chatRefusals = []struct {
	code string
	err  error
}{
	{"no-name", lobby.ErrChatNoName},
	{"empty", lobby.ErrChatEmpty},
	{"too-long", lobby.ErrChatTooLong},
	{"too-fast", lobby.ErrChatTooFast},
	{"watchers-muted", lobby.ErrChatMuted},
	{"ended", lobby.ErrChatClosed},
	{"muted-key", errMutedKey},
}

// refusalCode returns err, why a chat here refused a line, as its code
// for the node channel.
func refusalCode(err error) error {
	for _, r := range chatRefusals {
		if errors.Is(err, r.err) {
			return errors.New(r.code)
		}
	}
	return errors.New("refused")
}

// refusalOf returns the error a code from another node stands for, in
// the speaker's words; errChatRefused for a code this node does not know.
func refusalOf(code string) error {
	for _, r := range chatRefusals {
		if r.code == code {
			return r.err
		}
	}
	return errChatRefused
}

// watchedChat returns the chat of key fp's game on this node that a
// watcher may use (not today's daily: lobby.Memory.ChatOfGame).
func (s *Server) watchedChat(fp string) (*lobby.Chat, bool) {
	g, ok := s.place.live.OfKey(fp)
	if !ok {
		return nil, false
	}
	return s.place.live.ChatOfGame(g.ID)
}

// chatState is chat c as it goes to another node.
func chatState(c *lobby.Chat) cluster.ChatState {
	in := c.Lines()
	st := cluster.ChatState{Lines: make([]cluster.ChatLine, len(in)), Muted: c.WatchersMuted()}
	for i, l := range in {
		st.Lines[i] = cluster.ChatLine{Name: l.Name, Text: l.Text, Player: l.Player}
	}
	return st
}

// Chat implements cluster.Local: the chat of key fp's game here, whole,
// each time it changes.
func (l nodeLocal) Chat(fp string) (<-chan cluster.ChatState, func(), bool) {
	c, ok := l.s.watchedChat(fp)
	if !ok {
		return nil, nil, false
	}
	changed, stop := c.Listen()
	out := make(chan cluster.ChatState, 1)
	out <- chatState(c)
	go func() { // ends when changed closes: the chat ended or stop
		defer close(out)
		for range changed {
			offerLatest(out, chatState(c))
		}
	}()
	return out, stop, true
}

// Say implements cluster.Local: a watcher's line from another node, which
// checked the speaker's key and name; the chat's bounds and the admins'
// mute are checked again here.
func (l nodeLocal) Say(_ context.Context, fp string, line cluster.Said) error {
	c, ok := l.s.watchedChat(fp)
	if !ok {
		return cluster.ErrNotHere
	}
	name := line.Name
	if !tui.ValidName(name) {
		name = ""
	}
	if err := l.s.say(c, line.Key, name, line.Text); err != nil {
		return refusalCode(err)
	}
	return nil
}

// watcherChat opens, for a session or page of key fp, the chat of game id
// as a watcher: off a cluster a game of this node by its slot; on a
// cluster a game of any node by clusterID (clusterChat). ok is false when
// no such game is live or listed, or it is hidden (today's daily).
func (s *Server) watcherChat(id uint64, fp string) (tui.ChatRoom, bool) {
	if !s.place.clustered() {
		c, ok := s.place.live.ChatOfGame(id)
		if !ok {
			return nil, false
		}
		return s.newChatRoom(c, fp), true
	}
	if id&clusterBit == 0 {
		return nil, false
	}
	node, key := "", ""
	for _, g := range s.place.live.Games() {
		if g.Key != "" && clusterID(g.Key) == id {
			if lobby.HiddenDaily(g.Daily, s.place.clock()) {
				return nil, false
			}
			node, key = s.place.self, g.Key
		}
	}
	if node == "" {
		g, ok := s.place.nodes.find(id)
		if !ok || lobby.HiddenDaily(g.Daily, s.place.clock()) {
			return nil, false
		}
		node, key = g.Node, g.Fingerprint
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &clusterChat{speaker: s.newSpeaker(fp), game: key, changed: make(chan struct{}, 1), cancel: cancel}
	go r.follow(ctx, node)
	return r, true
}

// clusterChat is a watcher's view of a game's chat on a cluster
// (tui.ChatRoom): the lines as the game's node last sent them, its
// lines said there. One goroutine (follow) reads the chat and, when the
// game moves, follows it.
type clusterChat struct {
	speaker        // the watcher
	game    string // the player's key
	changed chan struct{}
	cancel  context.CancelFunc
	rate    lobby.ChatRate

	mu    sync.Mutex
	node  string      // the node whose chat is read now; "" between nodes
	here  *lobby.Chat // the chat, when node is this one
	lines []tui.ChatLine
	muted bool
}

var _ tui.ChatRoom = (*clusterChat)(nil)

// follow reads the chat of the game on node, then wherever it goes
// (nodes.nextNode), until it ends or the room closes; then Changed
// closes.
func (r *clusterChat) follow(ctx context.Context, node string) {
	n := r.srv.place.nodes
	defer close(r.changed)
	for node != "" && ctx.Err() == nil {
		if node == n.self {
			r.relayHere(ctx)
		} else {
			r.relayFrom(ctx, node)
		}
		r.mu.Lock()
		r.node, r.here = "", nil
		r.mu.Unlock()
		node = n.nextNode(ctx, node, r.game)
	}
}

// relayHere reads the chat of the game on this node until it ends or ctx
// does.
func (r *clusterChat) relayHere(ctx context.Context) {
	c, ok := r.srv.watchedChat(r.game)
	if !ok {
		return
	}
	changed, stop := c.Listen()
	defer stop()
	r.mu.Lock()
	r.node, r.here = r.srv.place.self, c
	r.mu.Unlock()
	r.show(chatState(c))
	for {
		select {
		case <-ctx.Done():
			return
		case _, open := <-changed:
			if !open {
				return
			}
			r.show(chatState(c))
		}
	}
}

// relayFrom reads the chat of the game on node until its stream ends or
// ctx does.
func (r *clusterChat) relayFrom(ctx context.Context, node string) {
	n := r.srv.place.nodes
	dial, cancel := context.WithTimeout(ctx, nodeCallTimeout)
	states, stop, err := n.peers.Chat(dial, node, r.game)
	cancel()
	n.called(err)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, cluster.ErrNotHere) {
			n.log.Info("could not read a game's chat on another node", "node", node, "err", err)
		}
		return
	}
	defer stop()
	r.mu.Lock()
	r.node = node
	r.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case st, open := <-states:
			if !open {
				return
			}
			r.show(st)
		}
	}
}

// show takes st as the chat's lines and tells the program.
func (r *clusterChat) show(st cluster.ChatState) {
	lines := make([]tui.ChatLine, len(st.Lines))
	for i, l := range st.Lines {
		lines[i] = tui.ChatLine{Name: tui.Inert(l.Name), Text: tui.Inert(l.Text), Player: l.Player}
	}
	r.mu.Lock()
	r.lines, r.muted = lines, st.Muted
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default: // told already, not read yet
	}
}

// Lines implements tui.ChatRoom.
func (r *clusterChat) Lines() []tui.ChatLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tui.ChatLine(nil), r.lines...)
}

// Changed implements tui.ChatRoom.
func (r *clusterChat) Changed() <-chan struct{} { return r.changed }

// Say implements tui.ChatRoom: the speaker's name (looked up again while
// it has none), this node's rate for the key and the admins' mute here,
// then the line to the game's node, which checks its chat's bounds and the
// mute again.
func (r *clusterChat) Say(text string) error {
	r.mu.Lock()
	node, here := r.node, r.here
	r.mu.Unlock()
	name := r.name()
	if name == "" {
		return lobby.ErrChatNoName
	}
	if here != nil {
		return r.srv.say(here, r.fp, name, text)
	}
	if node == "" {
		return errChatAway
	}
	if !r.rate.Take(time.Now()) {
		return lobby.ErrChatTooFast
	}
	if r.srv.chatMuted(r.fp) {
		return errMutedKey
	}
	ctx, cancel := context.WithTimeout(context.Background(), sayTimeout)
	defer cancel()
	n := r.srv.place.nodes
	err := n.called(n.peers.Say(ctx, node, r.game, cluster.Said{Key: r.fp, Name: name, Text: text}))
	var refused *cluster.RefusedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refused):
		return refusalOf(refused.Reason)
	case errors.Is(err, cluster.ErrNotHere):
		return errChatAway
	}
	n.log.Info("could not say a line in a game's chat on another node", "node", node, "err", err)
	return errChatAway
}

// MuteWatchers implements tui.ChatRoom: a watcher mutes nobody (the
// player's own room is on the player's node: chatRoom).
func (r *clusterChat) MuteWatchers(bool) {}

// WatchersMuted implements tui.ChatRoom.
func (r *clusterChat) WatchersMuted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.muted
}

// Close implements tui.ChatRoom: the room stops reading; Changed closes
// once it has.
func (r *clusterChat) Close() { r.cancel() }
