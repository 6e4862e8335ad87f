package sqlstore

// The register's tables (model.CustomerRegister). Levels are a table of
// their own rather than a setting: a customer row names its level by id,
// so renaming 贵宾 keeps every 贵宾, an import checks each row's level in
// the transaction that writes it, and two managers saving levels at once
// meet the unique key rather than overwrite each other's list.

type customerLevelRow struct {
	ID        int64  `gorm:"primaryKey"`
	BranchID  int64  `gorm:"not null;uniqueIndex:ux_customer_level,priority:1"`
	Name      string `gorm:"size:40;not null;uniqueIndex:ux_customer_level,priority:2"`
	Priority  int    `gorm:"not null"`        // 0: the service's own
	Service   string `gorm:"size:4;not null"` // a service code ("" none): codes never change
	SortOrder int    `gorm:"not null"`
}

func (customerLevelRow) TableName() string { return "customer_level" }

// customerRow is one customer. IDHash and CardHash are HMAC-SHA256 of the
// numbers under the branch's secret (hex), the Last4 columns all that is
// kept of the digits; the numbers themselves are never stored.
type customerRow struct {
	ID        int64   `gorm:"primaryKey"`
	BranchID  int64   `gorm:"not null;uniqueIndex:ux_customer_no,priority:1;index:ix_customer_id,priority:1;index:ix_customer_card,priority:1;index:ix_customer_phone,priority:1"`
	Number    string  `gorm:"size:20;not null;uniqueIndex:ux_customer_no,priority:2"`
	Name      string  `gorm:"size:40;not null"`
	Phone     string  `gorm:"size:20;not null;index:ix_customer_phone,priority:2"`
	LevelID   int64   `gorm:"not null"`
	Note      string  `gorm:"size:400;not null"`
	IDHash    *string `gorm:"size:64;index:ix_customer_id,priority:2"`
	IDLast4   string  `gorm:"size:4;not null"`
	CardHash  *string `gorm:"size:64;index:ix_customer_card,priority:2"`
	CardLast4 string  `gorm:"size:4;not null"`
	Enabled   bool    `gorm:"not null"`
}

func (customerRow) TableName() string { return "customer" }

// customerKeyRow holds each ID and card hash once in a branch, whichever
// column it is in: its key refuses a number two PCs give two customers at
// once, which the check before the write cannot see. (A unique index on
// the nullable hash columns would not do: SQL Server lets one NULL in.)
type customerKeyRow struct {
	BranchID   int64  `gorm:"primaryKey;autoIncrement:false"`
	Hash       string `gorm:"primaryKey;size:64"`
	CustomerID int64  `gorm:"not null"`
}

func (customerKeyRow) TableName() string { return "customer_key" }

// branchSecretRow keeps a branch's secrets, apart from the settings every
// terminal reads: Value is hex, never logged nor sent.
type branchSecretRow struct {
	BranchID int64  `gorm:"primaryKey;autoIncrement:false"`
	Purpose  string `gorm:"primaryKey;size:20"`
	Value    string `gorm:"size:128;not null"`
}

func (branchSecretRow) TableName() string { return "branch_secret" }

// defaultLevels are a new register's levels: 贵宾 is served like the
// seeded VIP service (priority 1), 私行 goes to that service too.
var defaultLevels = []customerLevelRow{
	{Name: "普通", Priority: 0, SortOrder: 1},
	{Name: "贵宾", Priority: 1, SortOrder: 2},
	{Name: "私行", Priority: 1, Service: "V", SortOrder: 3},
}
