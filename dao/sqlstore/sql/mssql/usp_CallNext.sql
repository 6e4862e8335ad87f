-- Claims the next waiting ticket for a window: picks the head of the
-- serving order (recall pool first, lane 1, then priority, then issue
-- order: the model's ServingOrder) and locks it. UPDLOCK takes the row as
-- it is read, READPAST skips rows another window holds, ROWLOCK keeps the
-- lock narrow: two windows never get the same ticket and neither waits for
-- the other. The lock lasts until the caller's transaction ends, and in
-- that transaction the caller writes the called state from the model
-- (model.Call) and the queue_event, so the rule of the transition is
-- written once, in Go, for every engine.
--
-- Returns the row as read, or no row when the queue is empty.
--
-- Written for SQL Server 2012 and later at any compatibility level: the
-- migration creates a stub first and then ALTERs it (no CREATE OR ALTER),
-- and the window's services are matched with CHARINDEX (no STRING_SPLIT).
-- The service filter is applied as the serving-order index is walked.
ALTER PROCEDURE dbo.usp_CallNext
    @BranchId BIGINT,
    @BusinessDate NVARCHAR(10),
    @ServiceIds NVARCHAR(400)
AS
BEGIN
    -- jiaohao:usp_CallNext:v3 (the migration compares this marker)
    SET NOCOUNT ON;
    DECLARE @Wanted NVARCHAR(402) = N',' + @ServiceIds + N',';

    SELECT TOP (1) t.*
    FROM dbo.ticket AS t WITH (UPDLOCK, READPAST, ROWLOCK)
    WHERE t.branch_id = @BranchId
        AND t.status = 1
        AND t.business_date = @BusinessDate
        AND CHARINDEX(N',' + CAST(t.service_id AS NVARCHAR(20)) + N',', @Wanted) > 0
    ORDER BY t.lane ASC, t.priority ASC, t.sort_key ASC, t.id ASC;
END;
