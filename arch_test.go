package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// sqlAdapter is the one package that may import gorm or a database driver
// (dao/sqlstore's doc comment says why).
const sqlAdapter = "jiaohao/dao/sqlstore"

// databaseImport says whether an import path is gorm or a database driver.
func databaseImport(path string) bool {
	for _, p := range []string{"gorm.io/", "github.com/go-sql-driver/", "github.com/jackc/", "github.com/microsoft/go-mssqldb",
		"github.com/glebarez/", "modernc.org/sqlite", "github.com/mattn/go-sqlite3", "github.com/lib/pq", "database/sql/driver"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

type listed struct {
	ImportPath  string
	Imports     []string
	TestImports []string
	Deps        []string
}

func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-json"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestOnlyTheSQLAdapterImportsTheDatabase fails when a package other than
// the SQL adapter imports gorm or a driver in its product code, and when a
// UI, device, report or peer-client build would link one through its
// dependencies.
func TestOnlyTheSQLAdapterImportsTheDatabase(t *testing.T) {
	for _, p := range goList(t, "./...") {
		if p.ImportPath == sqlAdapter {
			continue
		}
		for _, imp := range p.Imports {
			if databaseImport(imp) {
				t.Errorf("%s imports %s: only %s may", p.ImportPath, imp, sqlAdapter)
			}
		}
	}
	for _, p := range goList(t, "-deps=false", "./model", "./screens", "./printing", "./reports", "./dao/peer") {
		for _, dep := range goList(t, "-deps", p.ImportPath) {
			if dep.ImportPath == sqlAdapter || databaseImport(dep.ImportPath) {
				t.Errorf("%s links %s: a PC that reaches the queue through a peer must not", p.ImportPath, dep.ImportPath)
			}
		}
	}
}
