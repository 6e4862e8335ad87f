package app

// Windows PCs have no IANA time zone database for Go to read (Linux has
// /usr/share/zoneinfo), so the branch's zone, e.g. Asia/Shanghai, is
// embedded: the business day is computed the same on every PC.
import _ "time/tzdata"
