package game

// This file is what the player knows of items (items to
// learn, after NetHack's and Brogue's unidentified appearances). Each game
// shuffles, from its seed, which colour is which potion, which label is
// which scroll and which material is which wand; the player learns a kind
// by using one (or by a scroll of identify) and may call an unknown kind by
// a name of their own. Everything the player is shown names an item by
// ItemName: the kind once known, else its appearance.
//
// The shuffle has its own PCG seeded from the game's seed, so it takes
// nothing from the game's RNG (g.rng), needs no save field, and a save from
// before this change gets a shuffle too. No kind starts known: the health
// potion is the most common potion, so a player soon guesses it, and the
// guess is the game (NetHack starts none known either).

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/grotto-game/grotto/game/content"
)

// Appearance is how an unidentified kind looks: its name ("murky") and, for
// potions, its colour on the map.
type Appearance struct {
	Name string
	FG   content.RGB
}

// potionLooks are the potions' colours (NetHack's potion appearances);
// there are more than potion kinds, so the set in a game varies too.
var potionLooks = []Appearance{
	{"murky", content.RGB{R: 120, G: 110, B: 80}},
	{"bubbly crimson", content.RGB{R: 220, G: 30, B: 60}},
	{"fizzy amber", content.RGB{R: 255, G: 176, B: 32}},
	{"milky", content.RGB{R: 235, G: 235, B: 220}},
	{"smoky violet", content.RGB{R: 160, G: 90, B: 220}},
	{"glowing green", content.RGB{R: 80, G: 240, B: 80}},
	{"sparkling blue", content.RGB{R: 70, G: 140, B: 255}},
	{"oily black", content.RGB{R: 90, G: 90, B: 110}},
	{"swirling teal", content.RGB{R: 40, G: 200, B: 190}},
	{"golden", content.RGB{R: 240, G: 210, B: 60}},
}

// scrollLabels are the scrolls' labels (NetHack's scroll labels).
var scrollLabels = []string{
	"ZELGO MER", "FOOBIE BLETCH", "XIXAXA XOXAXA", "PRATYAVAYAH", "ELBIB YLOH",
	"VERR YED HORRE", "THARR", "YUM YUM", "KERNOD WEL", "DUAM XNAHT",
}

// wandLooks are the wands' materials (NetHack's wand appearances).
var wandLooks = []string{"oak", "iron", "bone", "glass", "copper", "ebony"}

// MaxCallRunes is the longest name, in runes, a player may call a kind.
const MaxCallRunes = 24

// Called is a name the player gave an unknown kind (ActCall).
type Called struct {
	Kind ItemKind
	Name string // printable, 1..MaxCallRunes runes
}

// lookSeed is mixed into the game's seed for the appearances' own PCG, so
// that it draws a stream unrelated to the game's.
const lookSeed = 0x6964656e74696679 // "identify"

// appearanceIndex returns which of its class's appearances kind k has in
// the game of seed, or -1 for a kind that has none (equipment, darts).
// The kinds of a class take the first places of a permutation of the
// class's appearances, in ItemKinds order.
func appearanceIndex(seed uint64, k ItemKind) int {
	r, ok := ruleOf(k)
	if !ok {
		return -1
	}
	var n int
	var same func(*itemRule) bool
	switch {
	case r.potion:
		n, same = len(potionLooks), func(o *itemRule) bool { return o.potion }
	case r.scroll:
		n, same = len(scrollLabels), func(o *itemRule) bool { return o.scroll }
	case r.wand:
		n, same = len(wandLooks), func(o *itemRule) bool { return o.wand }
	default:
		return -1
	}
	class := 0
	if r.scroll {
		class = 1
	} else if r.wand {
		class = 2
	}
	perm := rand.New(rand.NewPCG(seed, lookSeed+uint64(class))).Perm(n)
	i := 0
	for j := range itemRules {
		if &itemRules[j] == r {
			return perm[i%n]
		}
		if same(&itemRules[j]) {
			i++
		}
	}
	return -1
}

// Unidentified reports whether kind k has an appearance that hides it
// (potions, scrolls, wands) and the player has not learned it yet.
func (g *Game) Unidentified(k ItemKind) bool {
	return appearanceIndex(g.s.Seed, k) >= 0 && !g.knows(k)
}

// knows reports whether the player has learned kind k.
func (g *Game) knows(k ItemKind) bool {
	for _, x := range g.s.Known {
		if x == k {
			return true
		}
	}
	return false
}

// Identified returns whether the player knows what an item of kind k is: always
// for kinds without an appearance (equipment, darts).
func (g *Game) Identified(k ItemKind) bool { return !g.Unidentified(k) }

// AppearanceOf returns how kind k looks in this game, and false for a kind
// that has no appearance. It is the look, whether or not the player knows
// the kind (the map draws potions by it).
func (g *Game) AppearanceOf(k ItemKind) (Appearance, bool) {
	i := appearanceIndex(g.s.Seed, k)
	switch {
	case i < 0:
		return Appearance{}, false
	case k.Potion():
		return potionLooks[i], true
	case k.Scroll():
		return Appearance{Name: scrollLabels[i]}, true
	default:
		return Appearance{Name: wandLooks[i]}, true
	}
}

// CalledName returns the name the player called kind k, or "".
func (g *Game) CalledName(k ItemKind) string {
	for _, c := range g.s.Called {
		if c.Kind == k {
			return c.Name
		}
	}
	return ""
}

// KindName returns what the player calls n items of kind k (n ≥ 1): the
// kind ("health potion", "2 darts" is the caller's) once known; else the
// appearance, "murky potion", "scroll labelled ZELGO MER", "oak wand",
// with the player's name for it: "murky potion called fizz". Plural when n
// is above 1 ("murky potions", "scrolls labelled ZELGO MER").
func (g *Game) KindName(k ItemKind, n int) string {
	s := "s"
	if n == 1 {
		s = ""
	}
	if !g.Unidentified(k) {
		return pluralName(string(k), n)
	}
	a, _ := g.AppearanceOf(k)
	var name string
	switch {
	case k.Potion():
		name = a.Name + " potion" + s
	case k.Scroll():
		name = "scroll" + s + " labelled " + a.Name
	default:
		name = a.Name + " wand" + s
	}
	if c := g.CalledName(k); c != "" {
		name += " called " + c
	}
	return name
}

// CountedName returns what the player calls n items of kind k (n ≥ 1):
// KindName for one ("murky potion"), else with the count ("3 darts", "2
// scrolls labelled ZELGO MER"), as the pack, the dump and explore's
// "Items left" list a stack or a pile.
func (g *Game) CountedName(k ItemKind, n int) string {
	if n == 1 {
		return g.KindName(k, 1)
	}
	return fmt.Sprintf("%d %s", n, g.KindName(k, n))
}

// pluralName is name for n items: English plurals, +es after s, x, z, ch
// and sh; "chain mail" and "plate mail" do not change.
func pluralName(name string, n int) string {
	if n == 1 || strings.HasSuffix(name, "mail") {
		return name
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(name, end) {
			return name + "es"
		}
	}
	return name + "s"
}

// ItemName returns what the player calls it: KindName, with what the
// player can tell of this one item: its enchantment ("+1 sword") and, for
// a known wand, its charges ("striking wand (3)").
func (g *Game) ItemName(it Item) string {
	name := g.KindName(it.Kind, 1)
	if it.Enchant != 0 {
		name = fmt.Sprintf("%+d %s", it.Enchant, name)
	}
	if it.Kind.Wand() && g.Identified(it.Kind) {
		name += fmt.Sprintf(" (%d)", it.Charges)
	}
	return name
}

// learn teaches the player kind k, saying what the appearance was ("It was
// a haste potion!") when it was unknown. It changes nothing for a kind
// already known or without an appearance.
func (g *Game) learn(k ItemKind) {
	if !g.Unidentified(k) {
		return
	}
	g.s.Known = append(g.s.Known, k)
	g.logf(MsgInfo, fmt.Sprintf("It was %s!", WithArticle(string(k))))
}

// SanitizeCall returns the name a player typed, as ActCall keeps it: the
// printable runes only (invalid UTF-8 dropped), spaces trimmed and runs of
// space made one, cut to MaxCallRunes runes.
func SanitizeCall(s string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range strings.TrimSpace(s) {
		if n >= MaxCallRunes {
			break
		}
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			continue
		}
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && n > 0 {
			if n+1 >= MaxCallRunes {
				break
			}
			b.WriteRune(' ')
			n++
		}
		space = false
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// CallItem returns the command to call the kind of inventory slot item by
// name (sanitized by SanitizeCall; an empty name forgets the old one).
func CallItem(item int, name string) Command {
	return Command{Action: ActCall, Item: item, Name: SanitizeCall(name)}
}

// call names the kind of pack slot i for the player: a kind that is not
// known yet, by a name that is already sanitized. It takes no turn.
func (g *Game) call(i int, name string) (Result, error) {
	if err := g.checkSlot(i); err != nil {
		return Result{}, err
	}
	k := g.s.Inventory[i].Kind
	switch {
	case !g.Unidentified(k):
		return Result{}, &Impossible{"You already know what that is."}
	case name != SanitizeCall(name):
		return Result{}, &Impossible{"That name cannot be written."}
	case name == g.CalledName(k):
		return Result{}, &Impossible{"It is already called that."}
	}
	kept := g.s.Called[:0:0]
	for _, c := range g.s.Called {
		if c.Kind != k {
			kept = append(kept, c)
		}
	}
	if name != "" {
		kept = append(kept, Called{Kind: k, Name: name})
	}
	if len(kept) == 0 {
		kept = nil
	}
	old := g.KindName(k, 1)
	g.s.Called = kept
	if name == "" {
		g.logf(MsgInfo, fmt.Sprintf("You forget what you called the %s.", old))
	} else {
		g.logf(MsgInfo, fmt.Sprintf("You call the %s %q.", old, name))
	}
	return Result{}, nil
}

// validateKnowledge checks a decoded save's knowledge: known kinds and
// called kinds are item kinds, called names are sanitized and not empty,
// and no kind is called twice.
func validateKnowledge(s *state) error {
	for _, k := range s.Known {
		if !k.Known() {
			return fmt.Errorf("knows unknown item %q", k)
		}
	}
	seen := map[ItemKind]bool{}
	for _, c := range s.Called {
		switch {
		case !c.Kind.Known():
			return fmt.Errorf("called unknown item %q", c.Kind)
		case c.Name == "" || c.Name != SanitizeCall(c.Name):
			return fmt.Errorf("a bad name for %q", c.Kind)
		case seen[c.Kind]:
			return fmt.Errorf("%q called twice", c.Kind)
		}
		seen[c.Kind] = true
	}
	return nil
}

// UseTargeting returns what using an item of kind k asks the player first,
// as far as the player can tell: a wand is always aimed at a monster; an
// unknown scroll asks for nothing (it picks its own target, inventory.go);
// a known kind asks what its rule needs (Targeting), with an area's radius
// in tiles.
func (g *Game) UseTargeting(k ItemKind) (Targeting, int) {
	switch {
	case k.Wand():
		return TargetSingle, 0
	case g.Unidentified(k):
		return TargetNone, 0
	}
	return k.Targeting()
}
