package modelcontext

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// field is one JSON member of a struct type, found the way encoding/json
// finds them: exported fields under their `json` tag name or Go name,
// embedded structs' fields promoted by Go's visibility rules.
type field struct {
	name      string
	index     []int // reflect index path from the outer struct
	typ       reflect.Type
	tagged    bool // the name came from a tag
	omitEmpty bool
	omitZero  bool
	quoted    bool // the ",string" option on a bool, number or string field
}

// structFields are the JSON members of a struct type, in field order, and
// their index in that list by exact name.
type structFields struct {
	list  []field
	exact map[string]int
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf returns the JSON members of struct type t.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	sf := &structFields{list: typeFields(t), exact: map[string]int{}}
	for i, f := range sf.list {
		sf.exact[f.name] = i
	}
	f, _ := fieldCache.LoadOrStore(t, sf)
	return f.(*structFields)
}

// byName finds the member a JSON object key names: the exact name, else
// the first whose name equals it ignoring case, as encoding/json matches.
func (sf *structFields) byName(key string) (field, bool) {
	if i, ok := sf.exact[key]; ok {
		return sf.list[i], true
	}
	for _, f := range sf.list {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return field{}, false
}

// typeFields walks t breadth-first through its embedded structs, as
// encoding/json does, and keeps for each name the dominant field: the
// shallowest, and among equally shallow ones the only tagged one. Names that
// stay ambiguous are dropped.
func typeFields(t reflect.Type) []field {
	type visit struct {
		typ   reflect.Type
		index []int
	}
	var fields []field
	current := []visit{}
	next := []visit{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}

	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, v := range current {
			if visited[v.typ] {
				continue
			}
			visited[v.typ] = true
			for i := 0; i < v.typ.NumField(); i++ {
				sf := v.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := append(slices.Clip(v.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := field{
						name:      name,
						index:     index,
						typ:       ft,
						tagged:    name != "",
						omitEmpty: hasOption(opts, "omitempty"),
						omitZero:  hasOption(opts, "omitzero"),
					}
					if f.name == "" {
						f.name = sf.Name
					}
					if hasOption(opts, "string") {
						switch ft.Kind() {
						case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
							reflect.Float32, reflect.Float64, reflect.String:
							f.quoted = true
						}
					}
					fields = append(fields, f)
					if count[v.typ] > 1 {
						// Two embeddings of the same type at one depth:
						// a duplicate makes the names conflict and vanish.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, visit{typ: ft, index: index})
				}
			}
		}
	}

	slices.SortFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 {
			out = append(out, group[0])
		} else if len(group[0].index) < len(group[1].index) || (group[0].tagged && !group[1].tagged) {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validTagName reports whether encoding/json accepts name as a member name.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// fieldByIndex returns the field of struct value v at index, or false if
// a nil embedded pointer is in the way.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}
