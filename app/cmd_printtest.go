package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"jiaohao/model"
	"jiaohao/printing"
)

func init() {
	register("print-test", "print a sample ticket: --printer URL [--number A012]", runPrintTest)
}

// runPrintTest prints one sample ticket directly, without the retrying
// queue, so an installer sees the printer's error at once.
func runPrintTest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("print-test", stderr)
	addr := fs.String("printer", "", "printer address: escpos+serial:///dev/ttyUSB0?baud=9600, escpos+tcp://host:9100, spool:NAME or file:PATH (add ?paper=58 for 58 mm paper)")
	number := fs.String("number", "A012", "ticket number to print")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if strings.TrimSpace(*addr) == "" {
		return model.Errorf(model.EInvalidInput, "请用 --printer 指定打印机地址，例如 escpos+tcp://192.168.1.50:9100")
	}
	if strings.TrimSpace(*number) == "" {
		return model.Errorf(model.EInvalidInput, "--number 不能为空")
	}
	p, err := printing.OpenPrinter(*addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.Print(ctx, printing.SampleSlip(*number, time.Now())); err != nil {
		return fmt.Errorf("打印测试失败：%w", err)
	}
	fmt.Fprintf(stdout, "已向 %s 发送测试小票 %s\n", p, *number)
	return nil
}
