// The portal pages' addresses (app/paths.ts has the module's entry, /portals).

const encode = encodeURIComponent

export const portalPaths = {
	list: '/portals',
	new: '/portals/new',
	setup: (id: string) => `/portals/${encode(id)}`,
	members: (id: string) => `/portals/${encode(id)}/members`,
}
