package bot

// This file is what the runner records of a game, beyond its result, for
// the report's "Measured" section (measure.go): the monsters the player met and
// how each meeting ended, what the pack ever held, the level-up choices, the
// item kinds on the first levels, the special rooms, and the keys a person
// would have pressed. The runner may read the whole game (it measures, it
// does not decide), but what it counts is what a player would tell: a
// monster met is one the bot saw.

import (
	"fmt"
	"slices"

	"github.com/grotto-game/grotto/game"
)

// EarlyDepths is how deep the variety measure looks: the item kinds found on
// depths 1..EarlyDepths (the balance target: "the item kinds found on depths 1–3").
const EarlyDepths = 3

// Measures is what Play records of a game for the "Measured" section; it is
// part of Outcome.
type Measures struct {
	// Met counts, by monster kind (its content id), the monsters the player
	// saw and how each meeting ended (see Meetings).
	Met map[string]Meetings
	// Had is every item kind that was ever in the pack (picked up, or
	// carried from the start).
	Had map[game.ItemKind]bool
	// LevelUps counts the level-up choices made, by stat.
	LevelUps map[game.Stat]int
	// Spawned is the sorted item kinds lying on depths 1..EarlyDepths when
	// the player arrived there (what the seed put there); Seen is the sorted
	// kinds the player saw on those depths (on the floor, in sight).
	Spawned, Seen []string
	// Rooms is the sorted special rooms of every level the player entered,
	// as "kind on dN", when the game reports them (RoomsKnown); see
	// SpecialRooms.
	Rooms      []string
	RoomsKnown bool
	// Keys is the keys a person would have pressed to play the same game:
	// one per command, except that a run of moves with no monster in sight
	// is one key (auto-explore or travel walks it). See KeysPerMinute.
	Keys int
}

// Meetings counts the meetings with one kind of monster over a game (or
// many). A meeting is one monster the player saw alive on a level. It is
// killed when the monster dies (by any blow, scroll or poison) while the
// player lives; it is beaten when it is killed or the player leaves the
// level alive (down the stairs or out of the grotto) with it still
// there: "killed it or survived the level". A meeting still open when the
// player dies is lost; Killer counts the deaths this kind dealt. A game
// stopped at the turn cap leaves its open meetings neither beaten nor lost.
type Meetings struct {
	Met    int `json:"met"`
	Killed int `json:"killed"`
	Beaten int `json:"beaten"` // killed, or survived the level; Killed ≤ Beaten ≤ Met
	Killer int `json:"killer"` // games this kind of monster ended by killing the player
}

func (m Meetings) add(o Meetings) Meetings {
	return Meetings{m.Met + o.Met, m.Killed + o.Killed, m.Beaten + o.Beaten, m.Killer + o.Killer}
}

// SpecialRooms returns the special rooms of the level g is on, by kind
// ("vault", "shrine"), in the order the builders placed them
// (game.Game.SpecialRooms), with ok = true: the game reports them.
// Options.Rooms replaces it for one game.
func SpecialRooms(g *game.Game) (kinds []string, ok bool) {
	for _, r := range g.SpecialRooms() {
		kinds = append(kinds, r.Kind)
	}
	return kinds, true
}

// meeting is one monster of the current level, by its index in g.Actors.
type meeting struct {
	kind string
	seen bool // the player has seen it alive: a meeting
	done bool // killed (or gone from the actors) and counted
}

// watcher records Measures while Play runs.
type watcher struct {
	m        *Measures
	depth    int
	level    []meeting // by actor index on this level (0 is the player's, never a meeting)
	spawned  map[string]bool
	seen     map[string]bool
	rooms    map[string]bool
	lastAuto bool  // the last command was a move with no monster in sight
	quiet    bool  // no monster is in sight now (as of the last applied)
	inSight  []int // tile indexes of the monsters in sight, reused
	roomsOf  func(*game.Game) ([]string, bool)
}

// newWatcher returns a watcher recording into m; roomsOf reads a level's
// special rooms (nil: SpecialRooms).
func newWatcher(m *Measures, roomsOf func(*game.Game) ([]string, bool)) *watcher {
	if roomsOf == nil {
		roomsOf = SpecialRooms
	}
	*m = Measures{Met: map[string]Meetings{}, Had: map[game.ItemKind]bool{}, LevelUps: map[game.Stat]int{}}
	return &watcher{m: m, spawned: map[string]bool{}, seen: map[string]bool{}, rooms: map[string]bool{}, roomsOf: roomsOf}
}

// command counts the keys of c, about to be applied to the game v shows.
func (w *watcher) command(v *View, c game.Command) {
	auto := c.Action == game.ActMove && w.quiet
	if !auto || !w.lastAuto {
		w.m.Keys++
	}
	w.lastAuto = auto
}

// applied records c, which the game took, and the game as it is after it
// (v refreshed). It is also called once before the first command with a
// zero c.
func (w *watcher) applied(g *game.Game, v *View, c game.Command) {
	if c.Action == game.ActLevelUp {
		w.m.LevelUps[c.Stat]++
	}
	if d := g.Depth(); d != w.depth {
		w.arrive(g, d)
	}
	if c.Action == game.ActPickUp || c.Action == 0 { // the pack grows only by picking up
		for _, it := range v.Pack() {
			w.m.Had[it.Kind] = true
		}
	}
	if w.depth <= EarlyDepths {
		for _, it := range v.Items() {
			if v.Visible(it.Pos) {
				w.seen[string(it.Kind)] = true
			}
		}
	}
	w.inSight = w.inSight[:0]
	for _, m := range v.Monsters() {
		w.inSight = append(w.inSight, m.Pos.Y*v.w+m.Pos.X)
	}
	w.quiet = len(w.inSight) == 0
	w.meet(v, g.Player().HP > 0)
}

// arrive starts depth d: the last level's meetings end (left alive), the
// early depths' items spawned and the level's special rooms are counted.
func (w *watcher) arrive(g *game.Game, d int) {
	if w.depth != 0 {
		w.leave(true)
	}
	w.depth, w.level = d, append(w.level[:0], meeting{kind: "player", done: true})
	if d <= EarlyDepths {
		for _, it := range g.Items() {
			w.spawned[string(it.Kind)] = true
		}
	}
	if rs, ok := w.roomsOf(g); ok {
		w.m.RoomsKnown = true
		for _, r := range rs {
			w.rooms[fmt.Sprintf("%s on d%d", r, d)] = true
		}
	}
}

// meet updates the level's meetings from the monsters in v: seen when in
// sight, closed when dead (killed by the player, alive says, or not), done
// when gone from the game's list.
func (w *watcher) meet(v *View, alive bool) {
	for i, a := range v.actors {
		if i == 0 {
			continue
		}
		if i >= len(w.level) {
			w.level = append(w.level, meeting{kind: a.Kind})
		}
		mt := &w.level[i]
		if mt.kind != a.Kind { // not the monster it was: the game reused the slot
			w.close(mt, false)
			*mt = meeting{kind: a.Kind}
		}
		if mt.done {
			continue
		}
		switch {
		case a.Alive() && slices.Contains(w.inSight, a.Pos.Y*v.w+a.Pos.X):
			mt.seen = true
		case !a.Alive() && alive:
			w.close(mt, mt.seen)
		}
	}
	for i := len(v.actors); i < len(w.level); i++ {
		// gone from the game's list (fled the level, say): met, not killed
		w.level[i].done = true
	}
}

// close ends a meeting; killed says the player killed it.
func (w *watcher) close(mt *meeting, killed bool) {
	if mt.done || !mt.seen {
		mt.done = true
		return
	}
	mt.done = true
	n := w.m.Met[mt.kind]
	n.Met++
	if killed {
		n.Killed++
		n.Beaten++
	}
	w.m.Met[mt.kind] = n
}

// leave ends the level's open meetings: beaten when the player left it
// alive, lost (counted as met only) when not.
func (w *watcher) leave(survived bool) {
	for i := range w.level {
		mt := &w.level[i]
		if mt.done || !mt.seen {
			continue
		}
		mt.done = true
		n := w.m.Met[mt.kind]
		n.Met++
		if survived {
			n.Beaten++
		}
		w.m.Met[mt.kind] = n
	}
}

// finish ends the game's record: g is over (or capped); killer is the kind
// of the monster that dealt the last blow, "" for none.
func (w *watcher) finish(g *game.Game, killer string) {
	switch {
	case g.Won():
		w.leave(true)
	case g.Player().HP <= 0:
		w.leave(false)
		if killer != "" {
			n := w.m.Met[killer]
			n.Killer++
			w.m.Met[killer] = n
		}
	default: // capped: open meetings are neither beaten nor lost
		for i := range w.level {
			w.level[i].done = true
		}
	}
	w.m.Spawned, w.m.Seen, w.m.Rooms = keys(w.spawned), keys(w.seen), keys(w.rooms)
}

// keys returns the keys of set, sorted.
func keys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
