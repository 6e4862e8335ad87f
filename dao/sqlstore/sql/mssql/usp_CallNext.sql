-- Claims the next waiting ticket for a window: recall pool first (lane 1),
-- then priority, then issue order. UPDLOCK takes the row as it is read,
-- READPAST skips rows another window holds, ROWLOCK keeps the lock narrow:
-- two windows never get the same ticket and neither waits for the other.
-- Runs inside the caller's transaction, which also writes the queue_event.
--
-- Written for SQL Server 2012 and later at any compatibility level: the
-- migration creates a stub first and then ALTERs it (no CREATE OR ALTER),
-- and the window's services are matched with CHARINDEX (no STRING_SPLIT).
-- The service filter is applied as the serving-order index is walked.
ALTER PROCEDURE dbo.usp_CallNext
    @BranchId BIGINT,
    @BusinessDate NVARCHAR(10),
    @ServiceIds NVARCHAR(400),
    @WindowNo INT,
    @Now DATETIME2(6)
AS
BEGIN
    -- jiaohao:usp_CallNext:v2 (the migration compares this marker)
    SET NOCOUNT ON;
    DECLARE @Id BIGINT;
    DECLARE @Wanted NVARCHAR(402) = N',' + @ServiceIds + N',';

    SELECT TOP (1) @Id = t.id
    FROM dbo.ticket AS t WITH (UPDLOCK, READPAST, ROWLOCK)
    WHERE t.branch_id = @BranchId
        AND t.status = 1
        AND t.business_date = @BusinessDate
        AND CHARINDEX(N',' + CAST(t.service_id AS NVARCHAR(20)) + N',', @Wanted) > 0
    ORDER BY t.lane ASC, t.priority ASC, t.sort_key ASC, t.id ASC;

    IF @Id IS NULL
    BEGIN
        SELECT CAST(0 AS BIGINT) AS id;
        RETURN;
    END;

    UPDATE dbo.ticket
    SET status = 2,
        lane = 2,
        window_no = @WindowNo,
        called_at = @Now,
        call_count = call_count + 1
    WHERE id = @Id;

    SELECT @Id AS id;
END;
