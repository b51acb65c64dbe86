package game

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

// Action is what a command asks the player to do.
type Action uint8

// The actions a player can take. Zero is not an action.
const (
	ActMove    Action = iota + 1 // step by (DX, DY), or attack what stands there
	ActWait                      // let a turn pass
	ActDescend                   // take the down stairs under the player
	ActPickUp                    // pick up the item under the player
	ActUse                       // use (quaff, read) inventory slot Item, at Target if it needs one
	ActDrop                      // drop inventory slot Item
	ActThrow                     // throw inventory slot Item at Target
	ActCheat                     // an admin cheat (see Cheat)
)

// Command is one player input to the core: a small value, so that a game is
// its seed plus a list of commands.
type Command struct {
	Action Action
	DX, DY int       // for ActMove: the step, each in -1..1
	Item   int       // for ActUse, ActDrop, ActThrow: inventory slot, 0 = 'a'
	Target world.Pos // for ActUse of a targeted item and ActThrow: the tile aimed at
	Cheat  Cheat     // for ActCheat
	Kind   ItemKind  // for ActCheat CheatCreate: the item to make
}

// Move returns the command to step (or bump-attack) by dx, dy tiles.
func Move(dx, dy int) Command { return Command{Action: ActMove, DX: dx, DY: dy} }

// Wait returns the command to pass one turn.
func Wait() Command { return Command{Action: ActWait} }

// Descend returns the command to take the down stairs.
func Descend() Command { return Command{Action: ActDescend} }

// PickUp returns the command to pick up the item under the player.
func PickUp() Command { return Command{Action: ActPickUp} }

// Use returns the command to use inventory slot item, aimed at target (which
// items without targeting ignore).
func Use(item int, target world.Pos) Command {
	return Command{Action: ActUse, Item: item, Target: target}
}

// Drop returns the command to drop inventory slot item.
func Drop(item int) Command { return Command{Action: ActDrop, Item: item} }

// Throw returns the command to throw inventory slot item at target.
func Throw(item int, target world.Pos) Command {
	return Command{Action: ActThrow, Item: item, Target: target}
}

// Impossible is returned by Apply for a command that cannot happen; it costs no
// turn and changes nothing. Its text is meant for the player (the tutorials'
// ImpossibleException).
type Impossible struct{ Msg string }

func (e *Impossible) Error() string { return e.Msg }

// ErrGameOver is returned by Apply once the player is dead.
var ErrGameOver = errors.New("the game is over")

// Result tells the caller what a turn did that it may want to act on (save on
// a level change, show the death screen).
type Result struct {
	Descended bool // the player reached a new depth
	Died      bool // the player died this turn
	Won       bool // the player took the last stairs out of the grotto
}

// Apply carries out one player command and, if it took time, one full turn:
// every monster acts and the FOV is recomputed. An impossible command returns
// an *Impossible error and leaves the game exactly as it was.
func (g *Game) Apply(c Command) (Result, error) {
	if g.s.Over {
		return Result{}, ErrGameOver
	}
	var res Result
	switch c.Action {
	case ActMove:
		if c.DX < -1 || c.DX > 1 || c.DY < -1 || c.DY > 1 || (c.DX == 0 && c.DY == 0) {
			return res, &Impossible{"You cannot move like that."}
		}
		p := g.player()
		to := p.Pos.Add(c.DX, c.DY)
		target := g.blockerAt(to)
		if target == nil && !g.s.Map.At(to).Walkable() {
			return res, &Impossible{"That way is blocked."}
		}
		g.s.Turn++
		if target != nil {
			g.attack(p, target)
		} else {
			p.Pos = to
			g.describeFloor()
		}
	case ActWait:
		g.s.Turn++
	case ActPickUp, ActUse, ActDrop, ActThrow:
		// Each checks everything before changing anything, so a refusal
		// leaves the game as it was; the turn is counted only on success.
		turn := g.s.Turn
		g.s.Turn++ // messages of this action belong to the new turn
		var err error
		switch c.Action {
		case ActPickUp:
			err = g.pickUp()
		case ActUse:
			err = g.use(c.Item, c.Target)
		case ActDrop:
			err = g.drop(c.Item)
		case ActThrow:
			err = g.throw(c.Item, c.Target)
		}
		if err != nil {
			g.s.Turn = turn
			return res, err
		}
	case ActDescend:
		if g.s.Map.At(g.player().Pos) != world.DownStairs {
			return res, &Impossible{"There are no stairs here."}
		}
		return g.takeStairs(), nil
	case ActCheat:
		return g.cheat(c)
	default:
		return res, &Impossible{"Unknown command."}
	}
	g.updateFOV()
	g.monstersAct()
	g.tickEffects()
	if g.s.Dark {
		g.updateFOV() // monsters' lights moved; on lit levels sight depends on the player alone
	}
	res.Died = g.s.Over
	return res, nil
}

func (g *Game) player() *Actor { return &g.s.Actors[0] }

// describeFloor tells the player what lies where they stepped.
func (g *Game) describeFloor() {
	p := g.player().Pos
	for _, i := range g.itemsAt(p) {
		g.logf(MsgInfo, "You see "+withArticle(string(g.s.Items[i].Kind))+" here.")
	}
	switch {
	case g.s.Map.At(p) != world.DownStairs:
	case g.s.Depth >= mapgen.LastDepth:
		g.logf(MsgInfo, "These stairs lead up and out of the grotto. Press > to escape.")
	default:
		g.logf(MsgInfo, "There are stairs down here.")
	}
}

// takeStairs spends a turn going down the stairs, or out of the grotto
// from the last depth.
func (g *Game) takeStairs() Result {
	g.s.Turn++
	if g.s.Depth >= mapgen.LastDepth {
		g.escape()
		return Result{Won: true}
	}
	g.descend()
	g.tickEffects() // the stairs take a turn like any action
	return Result{Descended: true, Died: g.s.Over}
}

// escape ends the game in victory: the last level's stairs lead out.
func (g *Game) escape() {
	g.s.Over, g.s.Won = true, true
	g.s.Cause = "escaped the grotto"
	g.logf(MsgDescend, "You climb the last stairs and step out of the grotto into daylight. You have won!")
}

// descend builds the next depth and lets the player rest on the stairs,
// recovering half their maximum HP (python-tcod tutorial part 11).
func (g *Game) descend() {
	g.enterLevel(g.s.Depth + 1)
	p := g.player()
	heal := min(p.MaxHP/2, p.MaxHP-p.HP)
	p.HP += heal
	g.logf(MsgDescend, "You take a moment to rest, and recover your strength.")
	g.logf(MsgDescend, "You descend to depth "+fmt.Sprint(g.s.Depth)+": "+g.s.Level+".")
}

// commandJSON is a Command in the journal: short field names, zero fields
// left out.
type commandJSON struct {
	A  Action    `json:"a"`
	DX int       `json:"dx,omitempty"`
	DY int       `json:"dy,omitempty"`
	I  int       `json:"i,omitempty"`
	T  world.Pos `json:"t,omitzero"`
	C  Cheat     `json:"c,omitempty"`
	K  ItemKind  `json:"k,omitempty"`
}

// EncodeCommand returns c as a journal entry (a few dozen bytes of JSON),
// keeping only the fields its action reads (see Normalized).
func EncodeCommand(c Command) []byte {
	c = c.Normalized()
	b, _ := json.Marshal(commandJSON{A: c.Action, DX: c.DX, DY: c.DY, I: c.Item, T: c.Target, C: c.Cheat, K: c.Kind})
	return b
}

// Normalized returns c with the fields its action does not read set to
// zero: the same command, as Apply sees it.
func (c Command) Normalized() Command {
	n := Command{Action: c.Action}
	switch c.Action {
	case ActMove:
		n.DX, n.DY = c.DX, c.DY
	case ActUse, ActThrow:
		n.Item, n.Target = c.Item, c.Target
	case ActDrop:
		n.Item = c.Item
	case ActCheat:
		n.Cheat = c.Cheat
		if c.Cheat == CheatCreate {
			n.Kind = c.Kind
		}
	}
	return n
}

// DecodeCommand reads a journal entry made by EncodeCommand. Bytes that are
// not one return an error wrapping ErrCorruptSave.
func DecodeCommand(b []byte) (Command, error) {
	var j commandJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return Command{}, fmt.Errorf("%w: journal entry: %v", ErrCorruptSave, err)
	}
	return Command{Action: j.A, DX: j.DX, DY: j.DY, Item: j.I, Target: j.T, Cheat: j.C, Kind: j.K}, nil
}

// Replay applies journaled commands to g in order. Every command in a
// journal happened, so one that is refused, or a game that ended before the
// journal did, means the journal does not belong to this save: it returns
// an error wrapping ErrCorruptSave, naming the entry.
func (g *Game) Replay(cmds []Command) error {
	for i, c := range cmds {
		if g.s.Over {
			return fmt.Errorf("%w: journal entry %d after the game ended", ErrCorruptSave, i)
		}
		if _, err := g.Apply(c); err != nil {
			return fmt.Errorf("%w: journal entry %d (%+v): %v", ErrCorruptSave, i, c, err)
		}
	}
	return nil
}
