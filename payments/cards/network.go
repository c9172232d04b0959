package cards

import "strconv"

// Card networks, spelled as in Hyperswitch's CardNetwork enumeration
// (its card_networks list). Network returns only the ones
// that an IIN identifies on its own; CartesBancaires, Interac, Star, Pulse,
// Accel and Nyce are co-badged or domestic schemes that a PAN alone does not
// reveal.
const (
	Visa            = "Visa"
	Mastercard      = "Mastercard"
	AmericanExpress = "AmericanExpress"
	JCB             = "JCB"
	DinersClub      = "DinersClub"
	Discover        = "Discover"
	CartesBancaires = "CartesBancaires"
	UnionPay        = "UnionPay"
	Interac         = "Interac"
	RuPay           = "RuPay"
	Maestro         = "Maestro"
	Star            = "Star"
	Pulse           = "Pulse"
	Accel           = "Accel"
	Nyce            = "Nyce"
)

// iinRange is an inclusive range of the first Digits digits of a PAN.
type iinRange struct {
	digits  int
	lo, hi  int
	network string
}

// iinRanges is checked in order; more specific ranges come before the broad
// ones they sit inside (RuPay's 6-digit ranges before Discover's 65 and
// Maestro's 50).
var iinRanges = []iinRange{
	{2, 34, 34, AmericanExpress},
	{2, 37, 37, AmericanExpress},
	{3, 300, 305, DinersClub},
	{4, 3095, 3095, DinersClub},
	{2, 36, 36, DinersClub},
	{2, 38, 39, DinersClub},
	{4, 3528, 3589, JCB},
	{1, 4, 4, Visa},
	{2, 51, 55, Mastercard},
	{4, 2221, 2720, Mastercard},
	{6, 508500, 508999, RuPay},
	{6, 606985, 607984, RuPay},
	{6, 608001, 608500, RuPay},
	{6, 652150, 653149, RuPay},
	{2, 50, 50, Maestro},
	{2, 56, 58, Maestro},
	{4, 6304, 6304, Maestro},
	{2, 67, 67, Maestro},
	{4, 6011, 6011, Discover},
	{3, 644, 649, Discover},
	{2, 65, 65, Discover},
	{2, 62, 62, UnionPay},
	{4, 8100, 8171, UnionPay},
}

// Network returns the card network of number by its IIN range, or "" when the
// number is not digits (spaces and dashes are ignored) or no range matches.
func Network(number string) string {
	d := stripSeparators(number)
	if !allDigits(d) {
		return ""
	}
	for _, r := range iinRanges {
		if len(d) < r.digits {
			continue
		}
		p, _ := strconv.Atoi(d[:r.digits])
		if p >= r.lo && p <= r.hi {
			return r.network
		}
	}
	return ""
}
