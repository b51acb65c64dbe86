package game

// This file groups the pack into stacks for display and choice: three
// health potions are one line, "3 health potions", under one letter. It is
// a view over the inventory's list, which stays one item per slot (saves,
// commands and the 26-item limit are unchanged): a command on a stack
// addresses one of its slots, so using, dropping or throwing from a stack
// takes one item.

// Stack is a group of items in the pack that stack: the same kind, held the
// same way (see sameStack).
type Stack struct {
	Kind  ItemKind
	Slots []int // inventory slots (0 = first item), ascending; never empty
}

// Slot returns the inventory slot a command on the stack addresses: its
// last, so that taking one leaves every stack where it was in the list
// (stacks are ordered by their first item) and no letter changes while a
// stack lasts.
func (s Stack) Slot() int { return s.Slots[len(s.Slots)-1] }

// Count returns how many items the stack holds.
func (s Stack) Count() int { return len(s.Slots) }

// Stacks returns the pack as stacks, in the order each stack's first item
// entered the pack.
func (g *Game) Stacks() []Stack {
	var out []Stack
	inv := g.s.Inventory
next:
	for i := range inv {
		for j := range out {
			if g.sameStack(out[j].Slot(), i) {
				out[j].Slots = append(out[j].Slots, i)
				continue next
			}
		}
		out = append(out, Stack{Kind: inv[i].Kind, Slots: []int{i}})
	}
	return out
}

// sameStack reports whether pack slots i and j stack: items of the same
// kind, both worn or both carried, with the same charges and enchantment
// (issue 21: two wands of different charges are two lines). It is the one
// place that says so.
func (g *Game) sameStack(i, j int) bool {
	a, b := g.s.Inventory[i], g.s.Inventory[j]
	return a.Kind == b.Kind && a.Worn == b.Worn && a.Charges == b.Charges && a.Enchant == b.Enchant
}
