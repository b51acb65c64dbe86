// Package bot plays grotto's core headless, as a player would, to measure
// balance (so that balance is a tested number, not a guess) and to check the rules'
// invariants over many whole games.
//
// A bot sees only what a player sees: a View over a game (explored tiles,
// monsters and items in sight, its pack, its HP, the log) and its own memory
// of the items it has seen. A Policy is an ordered list of Rules over a View;
// Play runs one game of a policy from a seed until death, victory or a turn
// cap, checking invariants after every command, and returns its Outcome;
// Summarize turns outcomes into a report. The package is pure: no I/O, no
// goroutines, no clock; cmd/grotto-bots runs games in parallel and times them.
//
// Hooks for new rules: an item a bot should use is one entry of ItemUses
// (for equipment: wear it when better than what is worn); a decision the
// game asks for (a level-up choice) is a Rule passed first to Careful or
// Diver, which the policy tries before anything else.
package bot

// This file plays one game and checks the invariants while it does.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
)

// DefaultTurnCap is the turns after which a game that has not ended is
// stopped and counted as capped.
const DefaultTurnCap = 20000

// Options tune Play.
type Options struct {
	TurnCap int  // turns before the game is stopped; 0 means DefaultTurnCap
	Replay  bool // after the game, replay its journal (through the codec) onto a new game and compare the saves byte for byte
	// Rooms reads the special rooms of the level a game is on, for
	// Measures.Rooms; nil means SpecialRooms.
	Rooms func(g *game.Game) (kinds []string, ok bool)
}

// Outcome is one game's result and what it used.
type Outcome struct {
	Policy  string
	Seed    uint64
	Won     bool
	Died    bool
	Capped  bool   // stopped at the turn cap, neither won nor dead
	Depth   int    // deepest depth reached, 1..mapgen.LastDepth
	Cause   string // what killed the player: a monster's name, "poison", "a fireball"; "" unless Died
	Turns   int    // turns played
	Score   int    // game.Score at the end
	Kills   int
	Refused int // commands the game refused (a bot's mistake; each was replaced by a wait)
	// DepthTurns[d] is the turns spent on depth d (index 0 unused).
	DepthTurns [mapgen.LastDepth + 1]int
	Used       map[game.ItemKind]int // items used or thrown, by kind
	Left       map[game.ItemKind]int // items in the pack at the end, by kind
	Journal    []game.Command        // every command the game took, in order
	Violations []string              // broken invariants, empty in a sound game
	ElapsedMS  float64               // wall time of the game in ms, filled by a caller that measures it (this package reads no clock)
	Measures                         // what the report's "Measured" section counts (watch.go)
}

// Play runs policy on a new game of seed with data until the player dies,
// wins, or plays opt.TurnCap turns. It checks after every command that HP
// never exceeds max HP, the player never stands on a tile that is not
// walkable, and the game is over exactly when the player is dead or has won;
// a panic inside the game or the policy is caught and recorded. With
// opt.Replay it then replays the journal. Broken invariants go to
// Outcome.Violations, each naming the seed and turn.
func Play(seed uint64, data *content.Tables, policy Policy, opt Options) (out Outcome) {
	if opt.TurnCap <= 0 {
		opt.TurnCap = DefaultTurnCap
	}
	out = Outcome{Policy: policy.Name, Seed: seed, Used: map[game.ItemKind]int{}, Left: map[game.ItemKind]int{}}
	var g *game.Game
	defer func() {
		if r := recover(); r != nil {
			turn := -1
			if g != nil {
				turn = g.Turn()
			}
			out.Violations = append(out.Violations, fmt.Sprintf("seed %d turn %d: panic: %v", seed, turn, r))
		}
	}()
	g = game.New(seed, data)
	v := NewView(g)
	w := newWatcher(&out.Measures, opt.Rooms)
	w.applied(g, v, game.Command{})
	out.check(g)
	for tries := 0; !g.Over() && g.Turn() < opt.TurnCap && tries < 4*opt.TurnCap; tries++ {
		if !out.step(seed, g, v, w, policy) {
			break
		}
	}
	p := g.Player()
	out.Won, out.Died = g.Won(), p.HP <= 0
	out.Capped = !g.Over()
	out.Depth, out.Turns, out.Score, out.Kills = g.Depth(), g.Turn(), g.Score(), g.Kills()
	if out.Died {
		out.Cause = causeOf(g.Cause())
	}
	w.finish(g, monsterNamed(data, out.Cause).ID)
	for _, it := range g.Inventory() {
		out.Left[it.Kind]++
	}
	if opt.Replay {
		out.replay(g, data)
	}
	return out
}

// step plays one command policy decides on view v of game g (an
// impossible one is journaled as a wait instead), counts the item it used
// and the turns on its depth, and checks the invariants after it; w
// watches. It returns false when the game refused even the wait, a broken
// invariant (Violations names it).
func (o *Outcome) step(seed uint64, g *game.Game, v *View, w *watcher, policy Policy) bool {
	c := policy.Decide(v)
	var used game.ItemKind
	if c.Action == game.ActUse || c.Action == game.ActThrow {
		if pack := v.Pack(); c.Item >= 0 && c.Item < len(pack) {
			used = pack[c.Item].Kind
		}
	}
	w.command(v, c)
	depth, turn := g.Depth(), g.Turn()
	_, err := g.Apply(c)
	var imp *game.Impossible
	switch {
	case errors.As(err, &imp):
		o.Refused++
		c, used = game.Wait(), ""
		_, err = g.Apply(c)
	}
	if err != nil {
		o.Violations = append(o.Violations, fmt.Sprintf("seed %d turn %d: %+v: %v", seed, g.Turn(), c, err))
		return false
	}
	o.Journal = append(o.Journal, c)
	if used != "" {
		o.Used[used]++
	}
	o.DepthTurns[depth] += g.Turn() - turn
	v.Refresh()
	w.applied(g, v, c)
	o.check(g)
	return true
}

// check records the invariants g breaks now.
func (o *Outcome) check(g *game.Game) {
	p := g.Player()
	bad := func(format string, a ...any) {
		o.Violations = append(o.Violations, fmt.Sprintf("seed %d turn %d: ", o.Seed, g.Turn())+fmt.Sprintf(format, a...))
	}
	if p.HP > p.MaxHP {
		bad("HP %d above max %d", p.HP, p.MaxHP)
	}
	if !g.Tile(p.Pos).Walkable() {
		bad("player on tile %d at %v, which is not walkable", g.Tile(p.Pos), p.Pos)
	}
	if dead := p.HP <= 0; g.Over() != (dead || g.Won()) || dead && g.Won() {
		bad("over=%v but HP %d and won=%v", g.Over(), p.HP, g.Won())
	}
}

// replay plays o's journal, encoded and decoded as a session journals it,
// onto a new game of the same seed, and records a violation unless the
// save is the same, byte for byte, as g's.
func (o *Outcome) replay(g *game.Game, data *content.Tables) {
	cmds := make([]game.Command, len(o.Journal))
	for i, c := range o.Journal {
		d, err := game.DecodeCommand(game.EncodeCommand(c))
		if err != nil {
			o.Violations = append(o.Violations, fmt.Sprintf("seed %d: journal entry %d does not decode: %v", o.Seed, i, err))
			return
		}
		cmds[i] = d
	}
	if err := CheckReplay(g, o.Seed, data, cmds); err != nil {
		o.Violations = append(o.Violations, err.Error())
	}
}

// CheckReplay replays cmds onto a new game of seed and returns an error
// unless it ends in the same save as g (byte for byte).
func CheckReplay(g *game.Game, seed uint64, data *content.Tables, cmds []game.Command) error {
	r := game.New(seed, data)
	if err := r.Replay(cmds); err != nil {
		return fmt.Errorf("seed %d: replay: %w", seed, err)
	}
	want, err1 := g.Encode()
	got, err2 := r.Encode()
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("seed %d: encode: %w", seed, err)
	}
	if !bytes.Equal(want, got) {
		return fmt.Errorf("seed %d: the journal of %d commands replays to a different game (turn %d, want turn %d)", seed, len(cmds), r.Turn(), g.Turn())
	}
	return nil
}

// monsterNamed returns the monster kind of data called name (as messages
// and causes name it), or a zero Monster.
func monsterNamed(data *content.Tables, name string) content.Monster {
	for _, m := range data.Monsters {
		if m.Name == name {
			return m
		}
	}
	return content.Monster{}
}

// causeOf returns what killed the player from game.Cause ("killed by an
// orc on depth 2" → "orc"; "starved to death on depth 4" → "starvation").
func causeOf(cause string) string {
	if strings.HasPrefix(cause, "starved") {
		return "starvation"
	}
	c := strings.TrimPrefix(cause, "killed by ")
	if i := strings.LastIndex(c, " on depth "); i >= 0 {
		c = c[:i]
	}
	for _, a := range []string{"a ", "an "} {
		if strings.HasPrefix(c, a) && c != "a fireball" {
			return strings.TrimPrefix(c, a)
		}
	}
	return c
}
