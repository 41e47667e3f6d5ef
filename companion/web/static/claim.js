// The claim page: no live view of the table here, so the connection badge would only say "connecting".
"use strict";
document.getElementById("live").classList.add("hidden");
