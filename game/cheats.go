package game

import "fmt"

// Cheat names an admin cheat (bracket-lib tutorial, "Cheating to help with
// levels"). A game in which any cheat was used is marked Cheated for good.
type Cheat uint8

// The cheats of the admins' menu.
const (
	CheatTeleport Cheat = iota + 1 // to the next level, exactly as the stairs would
	CheatReveal                    // explore the whole level
	CheatHeal                      // HP to maximum
	CheatGod                       // toggle god mode: the player takes no damage
	CheatCreate                    // put an item of kind Command.Kind in the pack
)

// CheatCommand returns the command for cheat c; kind is the item CheatCreate
// makes and is ignored otherwise.
func CheatCommand(c Cheat, kind ItemKind) Command {
	return Command{Action: ActCheat, Cheat: c, Kind: kind}
}

// Cheated reports whether any cheat was used in this game: it then ends on
// the score screen but never enters the high-score table.
func (g *Game) Cheated() bool { return g.s.Cheated }

// God reports whether god mode is on.
func (g *Game) God() bool { return g.s.God }

// cheat carries out an admin cheat. Only teleporting takes a turn, as the
// stairs do.
func (g *Game) cheat(c Command) (Result, error) {
	if g.s.Daily != "" {
		return Result{}, &Impossible{ErrDailyCheat.Error()}
	}
	p := g.player()
	switch c.Cheat {
	case CheatTeleport:
		g.s.Cheated = true
		g.logf(MsgStatus, "(cheat) You teleport to the exit and take the stairs.") // the breaker pressed > after it and read "There are no stairs here."
		return g.takeStairs(), nil
	case CheatReveal:
		for i := range g.s.Map.Explored {
			g.s.Map.Explored[i] = true
		}
		g.logf(MsgStatus, "(cheat) The whole level is revealed.")
	case CheatHeal:
		p.HP = p.MaxHP
		g.logf(MsgStatus, "(cheat) You are healed to full.")
	case CheatGod:
		g.s.God = !g.s.God
		g.logf(MsgStatus, fmt.Sprintf("(cheat) God mode %s.", map[bool]string{true: "on", false: "off"}[g.s.God]))
	case CheatCreate:
		if !c.Kind.Known() {
			return Result{}, &Impossible{"No such item."}
		}
		if len(g.s.Inventory) >= InventorySize {
			return Result{}, &Impossible{"Your inventory is full."}
		}
		it := Item{Kind: c.Kind}
		if c.Kind.Wand() {
			it.Charges = WandMaxCharges // a cheat draws nothing from the RNG
		}
		g.addToPack(it)
		g.logf(MsgStatus, "(cheat) "+capitalize(WithArticle(g.ItemName(it)))+" appears in your pack.")
	default:
		return Result{}, &Impossible{"Unknown cheat."}
	}
	g.s.Cheated = true
	return Result{}, nil
}
