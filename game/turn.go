package game

// This file is the turn loop: one Apply is the player's command and, if it
// took time, every other actor's turn, the effects' tick and the new FOV.

import (
	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

// Apply carries out one player command and, if it took time, one full turn:
// every monster acts and the FOV is recomputed. An impossible command returns
// an *Impossible error and leaves the game exactly as it was. While a
// level-up waits for its choice (Growth().Pending), every command but
// LevelUp is impossible. Every command it accepts joins the game's
// history (History), which a replay plays again from the seed.
func (g *Game) Apply(c Command) (Result, error) {
	level := g.charLevel()
	g.slain = nil
	res, err := g.apply(c)
	res.Slain, g.slain = g.slain, nil
	if err == nil {
		if now := g.charLevel(); now > level {
			res.Level = now
		}
		g.hist.add(c) // every accepted command, for replays (history.go)
		if g.upgraded {
			g.s.Played = RulesVersion // ResumedUnderNewerRules
		}
	}
	return res, err
}

// apply is Apply without keeping the history.
func (g *Game) apply(c Command) (Result, error) {
	if g.s.Over {
		return Result{}, ErrGameOver
	}
	switch {
	case c.Action == ActLevelUp:
		return g.levelUp(c.Stat)
	case g.levelUpPending():
		return Result{}, &Impossible{"Choose what your new level raises first."}
	}
	switch c.Action {
	case ActDescend:
		if g.s.Map.At(g.player().Pos) != world.DownStairs {
			return Result{}, &Impossible{"There are no stairs here."}
		}
		return g.takeStairs(), nil
	case ActCheat:
		return g.cheat(c)
	case ActCall:
		return g.call(c.Item, c.Name)
	}
	hp := g.player().HP
	if err := g.act(c); err != nil {
		return Result{}, err
	}
	g.endTurn()
	g.warnLowHealth(hp)
	return Result{Died: g.s.Over}, nil
}

// act carries out the player's part of a command that takes one ordinary
// turn, counting the turn. A refusal returns an *Impossible error having
// changed nothing.
func (g *Game) act(c Command) error {
	switch c.Action {
	case ActMove:
		return g.move(c.DX, c.DY)
	case ActWait:
		g.s.Turn++
		return nil
	case ActSearch:
		g.search()
		return nil
	case ActPickUp, ActUse, ActDrop, ActThrow:
		return g.itemAction(c)
	}
	return &Impossible{"Unknown command."}
}

// move steps the player by (dx, dy), each in -1..1, or attacks the actor
// blocking that tile.
func (g *Game) move(dx, dy int) error {
	if dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) {
		return &Impossible{"You cannot move like that."}
	}
	p := g.player()
	to := p.Pos.Add(dx, dy)
	target := g.blockerAt(to)
	if target == nil && !g.s.Map.At(to).Walkable() {
		return &Impossible{blockedBy(g.s.Map.At(to))}
	}
	g.s.Turn++
	if target != nil {
		g.attack(p, target)
	} else {
		p.Pos = to
		g.describeFloor()
		g.springTrap()
	}
	return nil
}

// itemAction picks up, uses, drops or throws. Each checks everything before
// changing anything, so a refusal leaves the game as it was; the turn is
// counted only on success.
func (g *Game) itemAction(c Command) error {
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
	}
	return err
}

// endTurn runs the rest of the world's turn after the player acted: the FOV
// from the player's new place, every monster, then the effects' tick and
// the clock's (hunger and regeneration, clock.go).
func (g *Game) endTurn() {
	g.updateFOV()
	if !g.monstersSkip() { // a haste potion (magic.go)
		g.monstersAct()
	}
	g.tickEffects()
	g.tickClock()
	g.tickWander()
	if g.s.Dark {
		g.updateFOV() // monsters' lights moved; on lit levels sight depends on the player alone
	}
}

func (g *Game) player() *Actor { return &g.s.Actors[0] }

// describeFloor tells the player what lies where they stepped: "You see a
// dart here.", or on an altar "There is an altar here; on it lies a dart."
// (one message per item, as NetHack's "There is an altar here").
func (g *Game) describeFloor() {
	p := g.player().Pos
	for _, i := range g.itemsAt(p) {
		what := WithArticle(g.ItemName(g.s.Items[i]))
		if g.s.Map.At(p) == world.Altar {
			g.logf(MsgInfo, "There is an altar here; on it lies "+what+".")
		} else {
			g.logf(MsgInfo, "You see "+what+" here.")
		}
	}
	switch {
	case g.s.Map.At(p) != world.DownStairs:
	case g.s.Depth >= mapgen.LastDepth:
		g.logf(MsgInfo, "These are the last stairs: they lead out of the grotto. Press > to escape.")
	default:
		g.logf(MsgInfo, "There are stairs down here.")
	}
}

// blockedBy says why the player cannot step onto t: deep water is named
// (bracket-lib's caverns: "not passable by the player"), anything else is
// simply in the way.
func blockedBy(t world.Tile) string {
	if t == world.DeepWater {
		return "That is deep water; you cannot swim."
	}
	return "That way is blocked."
}
