#pragma once
// The discovery commands (servers, accounts, streams) are declared in clicontext.h.
