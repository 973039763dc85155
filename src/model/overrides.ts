// The AllowOverride class each directive needs in .htaccess (its req_override in the module
// source: OR_AUTHCFG, OR_LIMIT, OR_OPTIONS, OR_FILEINFO, OR_INDEXES). Null for directives
// allowed with any class, or that we do not know: those are never blamed for a 500.

const CLASSES: Record<string, string[]> = {
  authconfig: [
    'authtype', 'authname', 'authuserfile', 'authgroupfile', 'authdbmuserfile', 'authdbmgroupfile', 'authdbmtype', 'authbasicprovider',
    'authbasicauthoritative', 'authdigestprovider', 'authdigestdomain', 'authdigestnoncelifetime', 'authdigestalgorithm', 'authdigestqop',
    'require', 'satisfy', 'authzgroupfileauthoritative', 'authzuserauthoritative', 'authzdbmauthoritative', 'authzownerauthoritative',
    'authzdefaultauthoritative', 'authdefaultauthoritative', 'authzldapauthoritative', 'authldapurl', 'authldapbinddn', 'authldapbindpassword',
    'authldapgroupattribute', 'authldapgroupattributeisdn', 'authldapremoteuserattribute', 'authldapremoteuserisdn', 'authmerging',
    'requireall', 'requireany', 'requirenone', 'authzsendforbiddenonfailure', 'authformprovider', 'authdbduserpwquery',
  ],
  limit: ['order', 'allow', 'deny'],
  options: ['options', 'xbithack', 'contentdigest', 'php_flag', 'php_value'],
  indexes: [
    'directoryindex', 'indexoptions', 'indexignore', 'indexorderdefault', 'indexstylesheet', 'indexheadinsert', 'addicon', 'addiconbytype',
    'addiconbyencoding', 'adddescription', 'addalt', 'addaltbytype', 'addaltbyencoding', 'defaulticon', 'headername', 'readmename',
    'fancyindexing', 'expiresactive', 'expiresbytype', 'expiresdefault', 'directoryslash',
  ],
  fileinfo: [
    'rewriteengine', 'rewriterule', 'rewritecond', 'rewritebase', 'rewriteoptions', 'redirect', 'redirectmatch', 'redirectpermanent',
    'redirecttemp', 'errordocument', 'addtype', 'addhandler', 'sethandler', 'forcetype', 'addencoding', 'addcharset', 'addlanguage',
    'defaulttype', 'removehandler', 'removetype', 'removeencoding', 'removecharset', 'removelanguage', 'setoutputfilter', 'setinputfilter',
    'addoutputfilter', 'addinputfilter', 'addoutputfilterbytype', 'removeoutputfilter', 'removeinputfilter', 'setenvif', 'setenvifnocase',
    'browsermatch', 'browsermatchnocase', 'header', 'requestheader', 'fileetag', 'languagepriority', 'forcelanguagepriority',
    'adddefaultcharset', 'action', 'defaultlanguage', 'cookietracking', 'cookiename', 'cookieexpires', 'cookiestyle', 'cookiedomain',
    'addoutputfilterbytype', 'multiviewsmatch', 'contentdigest', 'acceptpathinfo', 'filterdeclare', 'filterprovider', 'filterchain',
  ],
};

const CLASS_OF = new Map<string, string>();
for (const [cls, names] of Object.entries(CLASSES)) for (const n of names) if (!CLASS_OF.has(n)) CLASS_OF.set(n, cls);

/** The AllowOverride class a directive needs in .htaccess, or null when unknown or unrestricted. */
export function overrideClass(name: string): string | null {
  return CLASS_OF.get(name.toLowerCase()) ?? null;
}
