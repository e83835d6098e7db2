-- Issue 19: chats owed replies. A platform's replies wait in a process's outbox (memory),
-- paced; a kill loses them. While a chat has replies queued and not sent, it has a row
-- here: the process that queued them (holder) and when it last sent one of them (since,
-- unix time). The row goes when they are all sent; one left by a process that died tells
-- the chat once, after the restart, that a command may need sending again.
CREATE TABLE unsent (
    chat    TEXT PRIMARY KEY,             -- a chat key: tg:<chat id>[:<topic>]
    holder  TEXT NOT NULL,
    since   DOUBLE PRECISION NOT NULL
);
