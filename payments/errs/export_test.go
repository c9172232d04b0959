package errs

// Catalogue is every Failure defined.
func Catalogue() []*Failure { return catalogue }

// VariantOf is the Hyperswitch variant f's row stands for, and whether f
// has a row.
func VariantOf(f *Failure) (string, bool) {
	w, ok := hyperswitch[f]
	return w.variant, ok
}
