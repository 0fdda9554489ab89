package dev.brain.index;

import java.util.List;

/**
 * What a sync could not index whole, by kind, each a file with the reason.
 *
 * @param skipped files (or folders) not read: unsupported, too large, links, unreadable folders
 * @param failed files that could not be read or parsed; their earlier records are kept
 * @param truncated records the chunk cap cut ({@link IndexConfig#maxChunksPerRecord()})
 * @param warnings parts of files left out (a bad JSONL line, a record whose key another file took)
 */
record SyncIssues(
    List<SyncReport.FileIssue> skipped,
    List<SyncReport.FileIssue> failed,
    List<SyncReport.FileIssue> truncated,
    List<SyncReport.FileIssue> warnings) {}
