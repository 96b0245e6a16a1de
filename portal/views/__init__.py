"""The pages that span both disciplines: the club portal, fee lists, /lag/ and /par/."""
