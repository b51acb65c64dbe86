// Package lobby holds the live games of a server: one slot per connected
// session, at most one of them its key's player, the others spectators (a
// second session of a key that plays elsewhere). A session claims a slot,
// renews it while it plays, publishes frames for its watchers and releases
// it when it has saved and gone; the lobby may take a slot away (Lost): when
// the same key takes the game over (takeover.go) or when the server shuts
// down. It also runs the keepalive and idle sweep over every slot.
//
// A slot is shaped like a lease (claim, renew, release, lost) so that an
// implementation on a shared database, where the slots of many nodes live,
// can follow Memory behind the same Lobby and Slot interfaces.
//
// The lobby knows nothing of Bubble Tea or of the UI: it tells a session
// what happens through a Notifier, and lists games as its own Game.
package lobby

import (
	"context"
	"errors"
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// Lobby is the live games of a server. All methods are safe for concurrent
// use, and none blocks on a session or a watcher, except Wait and
// Slot.TakeOver, which wait by design.
type Lobby interface {
	// Claim gives h's key its player slot, listed under h.Name. It returns
	// ErrAlreadyPlaying when the key has a player slot (or one of its
	// sessions is taking it over): one game per key, so two sessions can
	// never overwrite each other's save or outlive a death. It returns
	// ErrClosing once Shutdown has begun.
	Claim(h Holder) (Slot, error)
	// Spectate gives h's key a spectator slot: a session of a key that
	// plays elsewhere, told of shutdowns and waited for, but not listed
	// and not its key's game until Slot.TakeOver. h.Name is ignored. It
	// returns ErrClosing once Shutdown has begun.
	Spectate(h Holder) (Slot, error)
	// Games lists the player slots (never spectators), by name without
	// regard to case, then by ID.
	Games() []Game
	// OfKey returns the player slot of key fp (a fingerprint), found by
	// key, never by name; ok is false when the key has none.
	OfKey(fp string) (g Game, ok bool)
	// Watch subscribes to the frames of slot id: the channel first holds
	// its latest frame (if any), then only ever the newest one not yet
	// read, and closes when the slot is released. Every watcher of the
	// slot gets the same *frame.Frame: read it, never change it. stop
	// unsubscribes and may be called more than once. ok is false when id
	// is not live. The watched slot's notifier gets WatchersChanged when
	// watchers come or go, once until its holder next calls
	// Slot.Watchers (so 2,000 watchers joining cost it one notice).
	// A game of today's daily challenge (HiddenDaily, by the lobby's
	// clock) is watched by no one: ok is false, and a watcher of a game
	// that becomes one sees its channel close with no frame of it.
	Watch(id uint64) (frames <-chan *frame.Frame, stop func(), ok bool)
	// WatchOwn is Watch for the player slot of key fp (a fingerprint),
	// found by key, even while it plays today's daily: for a second
	// session of the same key (the choice to take over or watch), which
	// sees its own game. ok is false when the key has no player slot.
	WatchOwn(fp string) (frames <-chan *frame.Frame, stop func(), ok bool)
	// Sweep runs until stop closes: every keepAlive (0 means 30 s) it sends
	// each slot's Conn a keepalive request, closing a Conn that left 3 in a
	// row unanswered (its session then saves as it unwinds); every idle
	// period (between a second and a minute; 0 means never) it sends every slot
	// IdleCheck; every RelistEvery it sends Relist to the slots with no
	// game open. One goroutine for all slots: an idle session costs no
	// timer.
	Sweep(keepAlive, idle time.Duration, stop <-chan struct{})
	// Shutdown refuses claims from now on and takes every slot away: each
	// Lost channel closes and each notifier gets ShutDown. It does not wait.
	Shutdown()
	// Wait returns nil once every slot is released, or ctx's error.
	Wait(ctx context.Context) error
	// Len returns the number of slots, spectators included.
	Len() int
	// Kick takes away the player slot listed under name (without regard
	// to case: names are unique that way): its Lost channel closes and
	// its notifier gets Kicked, so its session saves and leaves. ok is
	// false when no player slot is listed under name. released closes
	// once the slot is released (its game saved).
	Kick(name string) (released <-chan struct{}, ok bool)
	// KickKey is Kick for the player slot of key fp (a fingerprint),
	// found by key, never by name: an admin's kick asked by another node,
	// which knows the key from the cluster's listing.
	KickKey(fp string) (released <-chan struct{}, ok bool)
	// Ban takes away every slot, player or spectator, whose key banned
	// reports true: each Lost channel closes and each notifier gets
	// Banned. It returns how many slots it took away.
	Ban(banned func(fp string) bool) int
	// RenameKey lists the player slot of key fp under name from now on
	// (an admin's rename), tells the key's sessions (RenamedWords), and
	// reports whether fp has a player slot.
	RenameKey(fp, name string) bool
	// TouchKey counts something key fp's session did that is not a turn
	// (a chat line said while watching) as its last input, which `who`
	// shows as idle time; nothing when fp has no player slot.
	TouchKey(fp string)
	// ChatOf returns the chat of the game key fp (a fingerprint) plays
	// here (chat.go), for its player; ok is false when it plays none. It
	// lasts through a take-over and closes when the key's player leaves.
	ChatOf(fp string) (c *Chat, ok bool)
	// ChatOfGame returns the chat of player slot id, for its watchers; ok
	// is false when id is no player slot, or a hidden daily's
	// (HiddenDaily: who cannot watch a game cannot talk in it).
	ChatOfGame(id uint64) (c *Chat, ok bool)
	// Broadcast hands text to every slot's notifier that is an Announcer
	// (players, spectators, sessions on the title screen or watching a
	// game) and returns how many it told. The text is passed as it is:
	// the caller makes it safe to show.
	Broadcast(text string) int
}

// Slot is one session's place in the lobby, held like a lease. Its methods
// are safe for concurrent use; after Release they do nothing (and those that
// return an error return ErrReleased).
type Slot interface {
	// ID names the slot in Game.ID and Lobby.Watch; it is never reused.
	ID() uint64
	// Player reports whether the slot is its key's player (not a spectator).
	Player() bool
	// Renew records that the holder is alive and acted at now: a listed
	// game's LastInput. It returns ErrLost once the slot has been taken
	// away (the holder may still save; a shared-database lobby fences its
	// writes from then on).
	Renew(now time.Time) error
	// Publish records what the slot's session does (a, as every list of
	// live games shows it), where its game stands (depth 0 means none;
	// daily is the daily challenge's date, "" for a game of its own)
	// and its latest frame (nil for none: a new watcher then waits for the
	// next), and returns: the slot's fan-out then hands f to every
	// watcher, a few at a time (1,000 a second, watch.go), replacing any
	// frame a watcher has not read yet, so a slow watcher only misses
	// frames and 2,000 of them never slow the player. f is shared, never
	// copied: it must not change once published.
	Publish(a Activity, depth, turn int, daily string, f *frame.Frame)
	// Watchers returns how many watch the slot now, and re-arms its
	// WatchersChanged notice (Lobby.Watch).
	Watchers() int
	// Rename lists the slot under name from now on. Call it only after the
	// store accepted name as the key's claimed name: the stored profile is
	// the one source of a listed name.
	Rename(name string)
	// TakeOver makes this spectator slot its key's player, after the key's
	// current player has been told, saved and released (takeover.go holds
	// the protocol and its ordering rule). name returns the stored
	// profile's name ("" when the key has claimed none); it is called once
	// the old player has released, so a name that player claimed counts.
	TakeOver(ctx context.Context, name func() string) error
	// Lost closes when the lobby takes the slot away: the same key took
	// the game over, or the server is shutting down. The holder should
	// then save and Release. It never closes because of Release itself.
	Lost() <-chan struct{}
	// Release gives the slot up, once the holder's game is saved; watchers
	// see their channels close. It may be called more than once.
	Release()
}

// Holder is who claims a slot.
type Holder struct {
	// Key is the fingerprint of the key the session authenticated with
	// ("SHA256:..."): the identity of a player.
	Key string
	// Name is the name the stored profile holds, the only name a game is
	// listed under; "" when the key has claimed none (never the SSH user
	// name, which is only a suggestion).
	Name string
	// Notifier is told of events for this slot; nil for none.
	Notifier Notifier
	// Conn is the session's connection, for keepalives; nil for none.
	Conn Conn
}

// Game is what everyone may know of a player slot: the list of live games on
// the title screen and `ssh host who`.
type Game struct {
	ID        uint64    // the slot, for Lobby.Watch
	Key       string    // the player's fingerprint: for the server and its nodes, never shown
	Name      string    // the stored profile's name, "" before one is claimed
	Activity  Activity  // what its session does now: on the title, playing, over, watching someone
	Depth     int       // dungeon depth (levels); 0 while not in a game
	Turn      int       // turns played in the game
	Daily     string    // the daily challenge's date ("2006-01-02") when the game is one; "" otherwise
	LastInput time.Time // the slot's last Renew (or its claim)
	Watchers  int       // sessions watching it now
}

// Doing is what a player slot's session is doing, as the lists of live
// games (`who`, the title screen, the web front page, the cluster's
// node_games) show it.
type Doing uint8

// What a session may be doing. The zero value is OnTitle: a slot that
// has published nothing yet has no game open.
const (
	// OnTitle: no game open (the title, name, settings or replay screens).
	OnTitle Doing = iota
	// Playing: a game in play, at Game.Depth and Game.Turn.
	Playing
	// GameOver: its game ended in death, and the session still shows how
	// (the death screen); there is nothing in play to watch.
	GameOver
	// Won: its game ended in victory, shown as GameOver is.
	Won
	// Watching: no game open; the session watches another player's game
	// (Activity.Watched).
	Watching
)

// String returns the word node_games stores for d (ParseDoing reads it):
// "title", "playing", "over", "won" or "watching".
func (d Doing) String() string {
	switch d {
	case Playing:
		return "playing"
	case GameOver:
		return "over"
	case Won:
		return "won"
	case Watching:
		return "watching"
	}
	return "title"
}

// ParseDoing reads a word of Doing.String; ok is false for any other text
// (a row written by a build that knew no activity holds "").
func ParseDoing(s string) (d Doing, ok bool) {
	for _, d := range []Doing{OnTitle, Playing, GameOver, Won, Watching} {
		if d.String() == s {
			return d, true
		}
	}
	return OnTitle, false
}

// Activity is what a player slot's session does now, as the session
// publishes it (Slot.Publish) and the lists of live games show it.
type Activity struct {
	Doing Doing
	// Watched is the name the watched game is listed under while Doing is
	// Watching ("" for a player who has chosen none, and otherwise). It
	// is a stored profile's name, but lists still show it made inert
	// (tui.Inert), as every name.
	Watched string
}

// Event is what the lobby tells a slot's holder.
type Event uint8

// The events a Notifier receives.
const (
	// ShutDown: the server is stopping; save and leave.
	ShutDown Event = iota + 1
	// TakenOver: the same key connected again and takes the game over;
	// save and leave (takeover.go).
	TakenOver
	// WatchersChanged: the number watching the slot changed; ask
	// Slot.Watchers (notices may arrive out of order, the count never does;
	// no second notice comes until the holder has asked).
	WatchersChanged
	// IdleCheck: check whether the holder has been idle too long, and if so
	// save and leave.
	IdleCheck
	// Kicked: an admin ended the session (Lobby.Kick); save and leave.
	Kicked
	// Banned: the key was banned (Lobby.Ban); save and leave.
	Banned
	// Relist: the live games may have changed since the holder last
	// listed them; a holder that shows the list (the title screen, the
	// watch list) reads it again. Sweep sends it every RelistEvery to
	// the slots with no game open, the only ones that show a list.
	Relist
)

func (e Event) String() string {
	switch e {
	case ShutDown:
		return "shut down"
	case TakenOver:
		return "taken over"
	case WatchersChanged:
		return "watchers changed"
	case IdleCheck:
		return "idle check"
	case Kicked:
		return "kicked"
	case Banned:
		return "banned"
	case Relist:
		return "relist"
	}
	return "unknown event"
}

// Notifier receives a slot's events. The lobby calls Notify outside its lock,
// from whichever goroutine caused the event; Notify must return quickly
// (hand the event over, e.g. in a goroutine) and may call the lobby.
type Notifier interface {
	Notify(Event)
}

// Announcer is a Notifier that also shows a host's broadcast
// (Lobby.Broadcast) to its session. Announce, like Notify, is called
// outside the lobby's lock and must return quickly.
type Announcer interface {
	Announce(text string)
}

// NotifierFunc adapts a function to a Notifier.
type NotifierFunc func(Event)

// Notify implements Notifier.
func (f NotifierFunc) Notify(e Event) { f(e) }

// Conn is the connection of a session, for keepalives: golang.org/x/crypto/ssh's
// Conn satisfies it.
type Conn interface {
	// SendRequest sends a global request; the sweep sends
	// "keepalive@openssh.com" with wantReply true and no payload.
	SendRequest(name string, wantReply bool, payload []byte) (bool, []byte, error)
	// Close closes the connection.
	Close() error
}

// Errors of the lobby.
var (
	// ErrClosing is returned by Claim, Spectate and TakeOver once Shutdown
	// has begun.
	ErrClosing = errors.New("the server is shutting down")
	// ErrAlreadyPlaying is returned by Claim when the key has a player
	// slot, and by TakeOver when another session took the key first.
	ErrAlreadyPlaying = errors.New("this key is already playing")
	// ErrTakingOver is returned by TakeOver while another session of the
	// same key is taking over.
	ErrTakingOver = errors.New("another session of this key is taking over")
	// ErrReleased is returned by a released slot's TakeOver and Renew.
	ErrReleased = errors.New("the slot was released")
	// ErrLost is returned by Renew once the lobby took the slot away.
	ErrLost = errors.New("the slot was taken away")
)
